/// The web view's one reader of what a browser sends: request heads, each at most
/// ``Limits/head`` bytes, read strictly (``RequestHead``) and with no body, until the server
/// switches the connection to WebSocket; then WebSocket frames, each a whole message (no
/// fragments), masked as a client's must be, of a known kind and at most ``Limits/message``
/// bytes.
///
/// A head is kept until it is whole and checked, and a frame until it is whole, its header
/// checked as soon as it is whole (a frame announcing too much is refused before its payload).
/// Anything else is a ``Refusal``: the server ends the connection.
///
/// Pure and incremental: bytes may come split anywhere.
public struct ClientTraffic: Sendable {
    public struct Limits: Sendable, Hashable {
        /// A request head: the request line and every header.
        public var head = 8192
        /// A WebSocket message's payload.
        public var message = PageRequest.maximumLength

        public init(head: Int = 8192, message: Int = PageRequest.maximumLength) {
            self.head = head
            self.message = message
        }
    }

    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case headTooLarge
        case malformed(RequestHead.Fault)
        case body
        case messageTooLarge
        /// A close, ping or pong with over 125 bytes of payload (RFC 6455 §5.5).
        case controlTooLarge
        case fragmented
        case unmasked
        case frameKind(UInt8)
        case reservedBits

        public var description: String {
            switch self {
            case .headTooLarge: "a request head over the limit"
            case .malformed(let fault): "a malformed request head: \(fault)"
            case .body: "a request with a body (no page needs one)"
            case .messageTooLarge: "a WebSocket message over the limit"
            case .controlTooLarge: "a WebSocket control frame over 125 bytes"
            case .fragmented: "a fragmented WebSocket message"
            case .unmasked: "an unmasked WebSocket frame"
            case .frameKind(let opcode): "a WebSocket frame of kind \(opcode)"
            case .reservedBits: "a WebSocket frame with reserved bits set"
            }
        }

        /// The response the server sends before closing, when the refusal came in a head (where
        /// the client waits for a response); `nil` for a WebSocket frame.
        public var response: (status: Int, reason: String)? {
            let status: Int? = switch self {
            case .headTooLarge: 431
            case .malformed: 400
            case .body: 413
            case .messageTooLarge, .controlTooLarge, .fragmented, .unmasked, .frameKind, .reservedBits: nil
            }
            return status.map { ($0, HTTPStatus.reason($0)) }
        }
    }

    /// What a browser sent, read whole and checked.
    public enum Unit: Sendable, Hashable {
        case head(RequestHead)
        /// A WebSocket frame, its payload unmasked.
        case frame(PageFrame)
    }

    /// What `scan` found in the bytes it was given.
    public struct Scanned: Sendable, Hashable {
        /// The heads and frames the bytes completed, in order. A head or frame begun and not
        /// ended is kept for the next bytes, not here.
        public var units: [Unit] = []
        /// How many of the bytes were read. The rest are the caller's to give again: they
        /// came after the units it asked for, or after a head that asks for a WebSocket (they
        /// wait until ``upgraded()`` or ``notUpgraded()`` says whether they are frames or heads).
        public var consumed = 0
        /// Why the connection must end: set when the bytes broke a rule. `units` holds what
        /// came before (requests still to answer); the traffic scans nothing more.
        public var refusal: Refusal?

        public init(units: [Unit] = [], consumed: Int = 0, refusal: Refusal? = nil) {
            self.units = units
            self.consumed = consumed
            self.refusal = refusal
        }
    }

    private enum Mode: Sendable {
        case heads
        /// An upgrade was asked and the server has not answered.
        case waitingForUpgrade
        case frames
        case refused
    }

    public let limits: Limits
    /// Request heads passed so far.
    public private(set) var requests = 0
    private var mode = Mode.heads
    /// The head being read (at most `limits.head` bytes).
    private var head: [UInt8] = []
    /// Blank lines skipped before the head being read: a few are allowed, not a stream of them
    /// (a client could hold a connection with them and never begin a head).
    private var blankLines = 0
    /// The frame header being read, then the frame's payload (at most `limits.message` bytes)
    /// and how many bytes of it are still to come.
    private var frameHeader: [UInt8] = []
    private var payload: [UInt8] = []
    private var payloadLeft = 0
    private var headerRead = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Blank lines skipped before one request, at most.
    public static let blankLinesAllowed = 4

    /// A request head has begun and not ended (blank lines before it count): the server's head
    /// time-out runs.
    public var isInsideHead: Bool { mode == .heads && (!head.isEmpty || blankLines > 0) }
    public var isWebSocket: Bool { mode == .frames }
    public var isWaitingForUpgrade: Bool { mode == .waitingForUpgrade }

    /// Scans `bytes`, the next the client sent, up to the end of the `maximum`-th unit.
    public mutating func scan(_ bytes: some Collection<UInt8>, upTo maximum: Int = .max) -> Scanned {
        var scanned = Scanned()
        do {
            try scan(bytes, upTo: maximum, into: &scanned)
        } catch {
            mode = .refused
            scanned.refusal = error
        }
        return scanned
    }

    private mutating func scan<Bytes: Collection<UInt8>>(_ bytes: Bytes, upTo maximum: Int, into scanned: inout Scanned) throws(Refusal) {
        var index = bytes.startIndex
        defer { scanned.consumed = bytes.distance(from: bytes.startIndex, to: index) }
        while index != bytes.endIndex && scanned.units.count < maximum {
            switch mode {
            case .waitingForUpgrade, .refused:
                return
            case .heads:
                try scanHead(bytes[index], into: &scanned)
                index = bytes.index(after: index)
            case .frames:
                index = try scanFrames(bytes, from: index, into: &scanned)
            }
        }
    }

    /// One byte of a head; a whole head is checked and passed.
    private mutating func scanHead(_ byte: UInt8, into scanned: inout Scanned) throws(Refusal) {
        guard head.count < limits.head else { throw .headTooLarge }
        // Refused at once rather than at the head's end: no head can end with one in it.
        if byte == 10 && head.last != 13 { throw .malformed(.bareLineFeed) }
        if byte != 10 && head.last == 13 { throw .malformed(.bareCarriageReturn) }
        head.append(byte)
        if head.count == 2, head == [13, 10] {
            // A blank line before a request, which HTTP allows a server to ignore.
            head.removeAll()
            blankLines += 1
            if blankLines > Self.blankLinesAllowed { throw .malformed(.requestLine) }
        } else if head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let request = try Self.check(head: head)
            scanned.units.append(.head(request))
            head.removeAll(keepingCapacity: true)
            blankLines = 0
            requests += 1
            if request["upgrade"]?.lowercased() == "websocket" { mode = .waitingForUpgrade }
        }
    }

    /// One more byte of a frame's header, checked once whole, or as much of its payload as
    /// came; a whole frame is unmasked and added. Returns where the scan goes on.
    private mutating func scanFrames<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, from index: Bytes.Index, into scanned: inout Scanned
    ) throws(Refusal) -> Bytes.Index {
        var next = index
        if headerRead {
            next = bytes.index(index, offsetBy: payloadLeft, limitedBy: bytes.endIndex) ?? bytes.endIndex
            payload += bytes[index..<next]
            payloadLeft -= bytes.distance(from: index, to: next)
        } else {
            frameHeader.append(bytes[index])
            next = bytes.index(after: index)
            guard let length = try frameLength() else { return next }
            headerRead = true
            payloadLeft = length
            payload.reserveCapacity(length)
        }
        if headerRead && payloadLeft == 0 { finishFrame(into: &scanned) }
        return next
    }

    /// The frame whose header and payload are read: unmasked, added, and the next begun.
    private mutating func finishFrame(into scanned: inout Scanned) {
        let mask = frameHeader.suffix(4)
        for index in payload.indices { payload[index] ^= mask[mask.startIndex + index % 4] }
        // The header's kinds are the ones `frameLength` lets through, each an opcode.
        let opcode = PageFrame.Opcode(rawValue: frameHeader[0] & 0x0F) ?? .text
        scanned.units.append(.frame(PageFrame(opcode: opcode, payload: payload)))
        frameHeader.removeAll(keepingCapacity: true)
        payload = []
        headerRead = false
    }

    /// The server switched the connection to WebSocket: what the client sends next is frames.
    public mutating func upgraded() {
        guard mode == .waitingForUpgrade else { return }
        mode = .frames
    }

    /// The server answered the upgrade with an ordinary response: heads again.
    public mutating func notUpgraded() {
        guard mode == .waitingForUpgrade else { return }
        mode = .heads
    }

    /// A complete head read, or why it may not be answered: not a strict head, or a request
    /// with a body.
    private static func check(head: [UInt8]) throws(Refusal) -> RequestHead {
        let request: RequestHead
        do {
            request = try RequestHead(parsing: head)
        } catch {
            throw .malformed(error)
        }
        if let length = request["content-length"], length != "0" { throw .body }
        if request["transfer-encoding"] != nil { throw .body }
        return request
    }

    /// The payload length of the frame whose header `frameHeader` holds, once it holds all of
    /// it; `nil` while it does not.
    private func frameLength() throws(Refusal) -> Int? {
        let first = frameHeader[0]
        guard first & 0x70 == 0 else { throw .reservedBits }
        let opcode = first & 0x0F
        // Text, close, ping and pong: a page sends text; the others are the protocol's own.
        guard [0x1, 0x8, 0x9, 0xA].contains(opcode) else { throw .frameKind(opcode) }
        guard first & 0x80 != 0 else { throw .fragmented }
        guard frameHeader.count >= 2 else { return nil }
        let second = frameHeader[1]
        guard second & 0x80 != 0 else { throw .unmasked }
        let short = Int(second & 0x7F)
        let extra = short == 126 ? 2 : short == 127 ? 8 : 0
        guard frameHeader.count >= 2 + extra + 4 else { return nil }
        var length = short
        if extra > 0 {
            length = 0
            for byte in frameHeader[2..<(2 + extra)] {
                guard length <= limits.message else { throw .messageTooLarge }
                length = length << 8 | Int(byte)
            }
        }
        guard length <= limits.message else { throw .messageTooLarge }
        if opcode >= 0x8 && length > 125 { throw .controlTooLarge }
        return length
    }
}
