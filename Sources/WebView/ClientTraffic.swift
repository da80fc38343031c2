/// What the gate lets through of the bytes a browser sends (the web view's front door, in front
/// of the HTTP server): request heads, each at most ``Limits/head`` bytes and with no body,
/// until the server switches the connection to WebSocket; then WebSocket frames, each a whole
/// message (no fragments), masked as a client's must be, of a known kind and at most
/// ``Limits/message`` bytes.
///
/// Anything else is a ``Refusal``: the gate closes the connection before a byte of it reaches
/// the server, so the server never holds more of a client than these limits.
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
        case body
        case messageTooLarge
        case fragmented
        case unmasked
        case frameKind(UInt8)
        case reservedBits

        public var description: String {
            switch self {
            case .headTooLarge: "a request head over the limit"
            case .body: "a request with a body (no page needs one)"
            case .messageTooLarge: "a WebSocket message over the limit"
            case .fragmented: "a fragmented WebSocket message"
            case .unmasked: "an unmasked WebSocket frame"
            case .frameKind(let opcode): "a WebSocket frame of kind \(opcode)"
            case .reservedBits: "a WebSocket frame with reserved bits set"
            }
        }
    }

    /// How far `scan` got.
    public enum Progress: Sendable, Hashable {
        /// Every byte may go on.
        case pass
        /// The first `count` bytes may go on; they end a request head that asks for a WebSocket.
        /// The rest waits, unscanned, until ``upgraded()`` or ``notUpgraded()`` says what it is.
        case upgradeAsked(passing: Int)
    }

    private enum Mode: Sendable {
        case heads
        /// An upgrade was asked and the server has not answered.
        case waitingForUpgrade
        case frames
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
    public mutating func scan(_ bytes: some Collection<UInt8>) throws(Refusal) -> Progress {
        var passed = 0
        for byte in bytes {
            switch mode {
            case .waitingForUpgrade:
                return .upgradeAsked(passing: passed)
            case .heads:
                passed += 1
                guard head.count < limits.head else { throw .headTooLarge }
                head.append(byte)
                if head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) {
                    let asksUpgrade = try Self.check(head: head)
                    head.removeAll(keepingCapacity: true)
                    requests += 1
                    if asksUpgrade { mode = .waitingForUpgrade }
                } else if head.count == 2, head == [13, 10] {
                    head.removeAll()  // a blank line between requests, which HTTP allows
                }
            case .frames:
                passed += 1
                if payloadLeft > 0 {
                    payloadLeft -= 1
                    continue
                }
                frameHeader.append(byte)
                if let length = try frameLength() {
                    frameHeader.removeAll(keepingCapacity: true)
                    payloadLeft = length
                }
            }
        }
        return mode == .waitingForUpgrade ? .upgradeAsked(passing: passed) : .pass
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

    /// Whether a complete head asks for a WebSocket, or why it may not pass: no request body.
    private static func check(head: [UInt8]) throws(Refusal) -> Bool {
        var upgrade = false
        for line in head.split(separator: 10).dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self)
                .trimmingCharacters(in: [" ", "\t", "\r"])
            switch name {
            case "content-length" where value != "0", "transfer-encoding": throw .body
            case "upgrade": upgrade = value.lowercased() == "websocket"
            default: break
            }
        }
        return upgrade
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

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
