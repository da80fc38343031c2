import Basics
#if canImport(Glibc)
import Glibc
#endif

/// A browser's side of the web view, byte for byte, for tests: a TCP connection to a port on
/// loopback that can send any bytes, make a request, upgrade to a WebSocket and exchange frames.
/// Every wait is bounded by `patience` (an answer that never comes fails the test, not hangs it).
/// One thread may send while another reads; neither may be shared further.
public final class WebClient: @unchecked Sendable {
    public let fd: Int32
    public var patience: Int32 = 20_000
    /// Whether a close frame came from the server.
    public private(set) var sawClose = false
    private var pending: [UInt8] = []

    public struct Closed: Error {
        public init() {}
    }

    /// - Parameter source: the loopback address to connect from (any of 127.0.0.0/8 is this
    ///   machine's): a test's second visitor, as the server tells addresses apart.
    /// - Parameter receiveBuffer: the socket's receive buffer in bytes, when a test wants a
    ///   client whose side fills quickly (one that does not read).
    public init(port: UInt16, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // Closed here and thrown before `self.fd` is set: deinit, which closes it, does not run.
        guard bound == 0, connected == 0 else {
            close(fd)
            throw Closed()
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends `bytes` as they are; false when the other side has gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        Socket.sendAll(fd, bytes)
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Ends the sending side, as a client that has said all it will (a half-close).
    public func shutSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads and drops up to `count` bytes of what the server sent (at least one, unless it
    /// closed or nothing came in time): a client that takes its answers slowly. How many.
    public func drain(upTo count: Int) -> Int {
        var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&polled, 1, patience) == 1 else { return 0 }
        var buffer = [UInt8](repeating: 0, count: count)
        return max(0, read(fd, &buffer, count))
    }

    /// Reads at least one more byte into the pending bytes; false at the end of the stream or
    /// when nothing came within `patience`.
    private func fill() -> Bool {
        var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&polled, 1, patience) == 1 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return false }
        pending += buffer[..<count]
        return true
    }

    /// Whether the server closed the connection (reads, discarding, until the end).
    public func isClosedByServer() -> Bool {
        while true {
            var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&polled, 1, patience) == 1 else { return false }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return true }
        }
    }

    /// A response's status line, headers (names lower case) and body (by Content-Length).
    public struct Response {
        public var status: Int
        public var headers: [String: String]
        public var body: String
        /// The body as it came, byte for byte (an image).
        public var bytes: [UInt8]
    }

    public func response() throws -> Response {
        while true {
            if let end = pending.indices.dropLast(3).first(where: { pending[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                let head = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 4)
                let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
                let status = Int(lines[0].split(separator: " ")[1]) ?? 0
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingSpaces()
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while pending.count < length { guard fill() else { throw Closed() } }
                let bytes = Array(pending.prefix(length))
                pending.removeFirst(length)
                return Response(status: status, headers: headers, body: String(decoding: bytes, as: UTF8.self), bytes: bytes)
            }
            guard fill() else { throw Closed() }
        }
    }

    /// A GET of `path`, naming `host`, with `headers` besides.
    public func get(_ path: String, host: String, headers: [String] = []) throws -> Response {
        let head = (["GET \(path) HTTP/1.1", "Host: \(host)"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
        guard send(head) else { throw Closed() }
        return try response()
    }

    /// Asks for the WebSocket as the page does; the response (101 when it is open).
    public func upgrade(host: String, origin: String?) throws -> Response {
        var headers = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
        if let origin { headers.append("Origin: \(origin)") }
        return try get("/ws", host: host, headers: headers)
    }

    /// A client's frame: masked, as a browser's.
    public static func frame(opcode: UInt8 = 0x1, payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [UInt8(0x80 | 126), UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    @discardableResult
    public func sendText(_ text: String) -> Bool { send(Self.frame(payload: Array(text.utf8))) }

    /// The next text message from the server (pings and pongs skipped); nil when the
    /// connection closed or nothing came in time.
    public func nextText() -> String? {
        while true {
            while pending.count < 2 { guard fill() else { return nil } }
            let opcode = pending[0] & 0x0F
            var length = Int(pending[1] & 0x7F)
            var header = 2
            if length == 126 {
                while pending.count < 4 { guard fill() else { return nil } }
                length = Int(pending[2]) << 8 | Int(pending[3])
                header = 4
            } else if length == 127 {
                while pending.count < 10 { guard fill() else { return nil } }
                length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }
                header = 10
            }
            while pending.count < header + length { guard fill() else { return nil } }
            let payload = Array(pending[header..<header + length])
            pending.removeFirst(header + length)
            switch opcode {
            case 0x1: return String(decoding: payload, as: UTF8.self)
            case 0x8:
                sawClose = true
                return nil
            default: continue
            }
        }
    }

    /// Text messages until one contains `fragment`; that one, or nil.
    public func text(containing fragment: String) -> String? {
        while let text = nextText() {
            if text.contains(fragment) { return text }
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " && $0 != "\r" }) else { return "" }
        return String(self[first...last])
    }
}
