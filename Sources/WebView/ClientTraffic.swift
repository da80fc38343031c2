/// What the gate lets through of the bytes a browser sends (the web view's front door, in front
/// of the HTTP server): request heads, each at most ``Limits/head`` bytes, read strictly
/// (``RequestHead``) and with no body, until the server switches the connection to WebSocket;
/// then WebSocket frames, each a whole message (no fragments), masked as a client's must be, of
/// a known kind and at most ``Limits/message`` bytes.
///
/// A head is held until it is whole and checked, and a frame's header until it is whole and
/// checked: what passes is exactly what was checked, so the server never reads a byte the gate
/// has not understood. Anything else is a ``Refusal``: the gate ends the connection, and the
/// server sees nothing of it.
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
            case .fragmented: "a fragmented WebSocket message"
            case .unmasked: "an unmasked WebSocket frame"
            case .frameKind(let opcode): "a WebSocket frame of kind \(opcode)"
            case .reservedBits: "a WebSocket frame with reserved bits set"
            }
        }

        /// The response the gate sends before closing, when the refusal came in a head (where
        /// the client waits for a response); `nil` for a WebSocket frame.
        public var response: (status: Int, reason: String)? {
            let status: Int? = switch self {
            case .headTooLarge: 431
            case .malformed: 400
            case .body: 413
            case .messageTooLarge, .fragmented, .unmasked, .frameKind, .reservedBits: nil
            }
            return status.map { ($0, HTTPStatus.reason($0)) }
        }
    }

    /// What `scan` found in the bytes it was given.
    public struct Scanned: Sendable, Hashable {
        /// What may go on to the server now: whole, checked heads and frame headers, and
        /// payloads of checked frames. A head begun and not ended is held, not here.
        public var passing: [UInt8] = []
        /// The bytes after a head that asks for a WebSocket, unscanned: they wait until
        /// ``upgraded()`` or ``notUpgraded()`` says whether they are frames or heads.
        public var held: [UInt8] = []
        /// Why the connection must end: set when the bytes broke a rule. `passing` holds what
        /// came before (requests the server is still to answer); nothing after it is kept, and
        /// the traffic scans nothing more.
        public var refusal: Refusal?

        public init(passing: [UInt8] = [], held: [UInt8] = [], refusal: Refusal? = nil) {
            self.passing = passing
            self.held = held
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
    /// The frame header being read, then the payload bytes still to pass.
    private var frameHeader: [UInt8] = []
    private var payloadLeft = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// A request head has begun and not ended: the gate's header time-out runs.
    public var isInsideHead: Bool { mode == .heads && !head.isEmpty }
    public var isWebSocket: Bool { mode == .frames }
    public var isWaitingForUpgrade: Bool { mode == .waitingForUpgrade }

    /// Scans `bytes`, the next the client sent.
    public mutating func scan(_ bytes: some Collection<UInt8>) -> Scanned {
        var scanned = Scanned()
        do {
            try scan(bytes, into: &scanned)
        } catch {
            mode = .refused
            scanned.refusal = error
        }
        return scanned
    }

    private mutating func scan<Bytes: Collection<UInt8>>(_ bytes: Bytes, into scanned: inout Scanned) throws(Refusal) {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            switch mode {
            case .waitingForUpgrade:
                scanned.held.append(contentsOf: bytes[index...])
                return
            case .refused:
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
            // A blank line before a request, which HTTP allows a server to ignore; it is
            // not passed: a server may take it for a request line (FlyingFox did).
            head.removeAll()
        } else if head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let asksUpgrade = try Self.check(head: head)
            scanned.passing += head
            head.removeAll(keepingCapacity: true)
            requests += 1
            if asksUpgrade { mode = .waitingForUpgrade }
        }
    }

    /// A frame's payload passed as it comes, or one more byte of its header, passed once whole;
    /// returns where the scan goes on.
    private mutating func scanFrames<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, from index: Bytes.Index, into scanned: inout Scanned
    ) throws(Refusal) -> Bytes.Index {
        if payloadLeft > 0 {
            let end = bytes.index(index, offsetBy: payloadLeft, limitedBy: bytes.endIndex) ?? bytes.endIndex
            let payload = bytes[index..<end]
            scanned.passing += payload
            payloadLeft -= payload.count
            return end
        }
        frameHeader.append(bytes[index])
        if let length = try frameLength() {
            scanned.passing += frameHeader
            frameHeader.removeAll(keepingCapacity: true)
            payloadLeft = length
        }
        return bytes.index(after: index)
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

    /// Whether a complete head asks for a WebSocket, or why it may not pass: not a strict head,
    /// or a request with a body.
    private static func check(head: [UInt8]) throws(Refusal) -> Bool {
        let request: RequestHead
        do {
            request = try RequestHead(parsing: head)
        } catch {
            throw .malformed(error)
        }
        if let length = request["content-length"], length != "0" { throw .body }
        if request["transfer-encoding"] != nil { throw .body }
        return request["upgrade"]?.lowercased() == "websocket"
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
        return length
    }
}
