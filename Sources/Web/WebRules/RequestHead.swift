/// A request head as the web view reads it, once: the request line and the header fields of
/// RFC 9112, read strictly, so that nothing between a browser and the board (a proxy a maker
/// puts in front of it, which may read leniently: split lines at a bare LF, trim spaces around a
/// field's name, keep the last of two fields of one name) can read a request differently.
///
/// Refused, where a lenient reader and a strict one could disagree:
/// - a line not ended by CRLF (a bare LF or a bare CR anywhere);
/// - a request line other than `METHOD SP TARGET SP HTTP/1.x`, a method not in capitals, a
///   target not in origin form (`/path?query`: an absolute-form target names its own host), or
///   one with a space, a control character or a byte outside ASCII;
/// - a field name that is not a token (`Upgrade : websocket`, ` Host: x`), a line folded onto
///   the one before (obs-fold), a field value with a control character or a byte outside ASCII;
/// - two fields of one name (any name: a reader that keeps the first and one that keeps the last
///   would see two requests);
/// - no `Host`, or an empty one.
///
/// Pure. Browsers send nothing this refuses.
public struct RequestHead: Sendable, Hashable {
    public var method: String
    public var target: String
    public var version: String
    /// In the order sent; each name at most once.
    public var fields: [Field]

    public struct Field: Sendable, Hashable {
        /// In lower case.
        public var name: String
        /// Without the spaces around it.
        public var value: String
    }

    /// What is wrong with a head, for the 400 the server answers and the tests.
    public enum Fault: Error, Sendable, Hashable, CustomStringConvertible {
        case bareLineFeed
        case bareCarriageReturn
        case requestLine
        case version
        case fieldName
        case folded
        case fieldValue(String)
        case duplicate(String)
        case noHost

        public var description: String {
            switch self {
            case .bareLineFeed: "a line ended by LF alone (HTTP ends each line with CR LF)"
            case .bareCarriageReturn: "a CR not followed by LF"
            case .requestLine: "a request line that is not METHOD, a space, the target, a space and the version"
            case .version: "an HTTP version other than HTTP/1.1 or HTTP/1.0"
            case .fieldName: "a header name that is not a token (a space before its colon, say)"
            case .folded: "a header line folded onto the one before it (a line starting with a space)"
            case .fieldValue(let name): "a control character or a byte outside ASCII in the \(name) header"
            case .duplicate(let name): "the \(name) header twice"
            case .noHost: "no Host header (HTTP/1.1 requires one)"
            }
        }
    }

    /// The `Connection` field's options, lower-cased ("keep-alive", "upgrade", "close").
    public var connectionOptions: [String] {
        (self["connection"] ?? "").lowercased().split(separator: ",").map { $0.filter { $0 != " " && $0 != "\t" } }
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless it says `close`,
    /// HTTP/1.0 only when it says `keep-alive`.
    public var keepsConnection: Bool {
        version == "HTTP/1.1" ? !connectionOptions.contains("close") : connectionOptions.contains("keep-alive")
    }

    /// The value of the field named `name` (any case), if it was sent.
    public subscript(name: String) -> String? {
        let key = name.lowercased()
        return fields.first { $0.name == key }?.value
    }

    /// Reads `bytes`, a whole head up to and including the blank line that ends it.
    public init(parsing bytes: some Collection<UInt8>) throws(Fault) {
        let lines = try Self.lines(Array(bytes))
        let requestLine = lines[0].split(separator: Self.space, omittingEmptySubsequences: false)
        // A method in capitals only: methods are case-sensitive (FlyingFox reads `get` as GET).
        // A target in origin form (`/path?query`) only: in absolute form (`http://host/path`)
        // RFC 9112 takes the host from the target, not from Host, which the host policy checks.
        guard requestLine.count == 3, !requestLine[0].isEmpty,
            requestLine[0].allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }), requestLine[1].first == UInt8(ascii: "/"),
            requestLine[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { throw .requestLine }
        let version = String(decoding: requestLine[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .version }
        method = String(decoding: requestLine[0], as: UTF8.self)
        target = String(decoding: requestLine[1], as: UTF8.self)
        self.version = version
        fields = []
        var names: Set<String> = []
        for line in lines.dropFirst().dropLast() {
            let field = try Self.field(line)
            guard names.insert(field.name).inserted else { throw .duplicate(field.name) }
            fields.append(field)
        }
        guard let host = self["host"], !host.isEmpty else { throw .noHost }
    }

    /// The head's lines, each without its CR LF; the last is the empty line that ends the head,
    /// and nothing may follow it in these bytes.
    private static func lines(_ bytes: [UInt8]) throws(Fault) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices {
            switch bytes[index] {
            case cr:
                guard index + 1 < bytes.count, bytes[index + 1] == lf else { throw .bareCarriageReturn }
            case lf:
                guard index > 0, bytes[index - 1] == cr else { throw .bareLineFeed }
                lines.append(bytes[start..<(index - 1)])
                start = index + 1
            default:
                break
            }
        }
        guard start == bytes.count, lines.count >= 2, let last = lines.last, last.isEmpty else { throw .requestLine }
        return lines
    }

    /// One field line: a token, a colon, and a value of visible characters, spaces and tabs
    /// (those around it dropped); no line folded onto the one before.
    private static func field(_ line: ArraySlice<UInt8>) throws(Fault) -> Field {
        guard let first = line.first, first != space, first != tab else { throw .folded }
        guard let colon = line.firstIndex(of: colon), isToken(line[..<colon]) else { throw .fieldName }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == space || byte == tab { value.removeFirst() }
        while let byte = value.last, byte == space || byte == tab { value.removeLast() }
        guard value.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == tab }) else { throw .fieldValue(name) }
        return Field(name: name, value: String(decoding: value, as: UTF8.self))
    }

    private static let cr: UInt8 = 13
    private static let lf: UInt8 = 10
    private static let space = UInt8(ascii: " ")
    private static let tab: UInt8 = 9
    private static let colon = UInt8(ascii: ":")

    /// RFC 9110's token: one or more of the visible ASCII characters other than the delimiters.
    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
