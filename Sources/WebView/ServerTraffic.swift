/// What the gate reads of the bytes the HTTP server sends back: where each response's head ends
/// and its status, so that the gate knows when the server has answered a WebSocket upgrade,
/// and how. Bodies are skipped by their `Content-Length`, which the server gives every
/// response that has one; a response the gate cannot frame ends the reading (the connection is
/// then never taken for a WebSocket).
///
/// Pure and incremental. Nothing is refused here: the server is the web view's own.
public struct ServerTraffic: Sendable {
    private enum Mode: Sendable {
        case head
        case body(left: Int)
        /// After a 101: WebSocket frames, not read.
        case switched
        /// A response the gate could not frame.
        case lost
    }

    private var mode = Mode.head
    private var head: [UInt8] = []
    /// Responses whose heads have been read.
    public private(set) var responses = 0

    public init() {}

    /// Whether every one of the first `requests` requests has been answered whole, and the
    /// server is between responses: what a connection waits for before it closes after the
    /// client has stopped sending. Never while the responses cannot be framed.
    public func hasAnswered(_ requests: Int) -> Bool {
        guard case .head = mode else { return false }
        return head.isEmpty && responses >= requests
    }

    /// The statuses of the responses whose heads `bytes` complete, in order.
    public mutating func scan(_ bytes: some Collection<UInt8>) -> [Int] {
        var statuses: [Int] = []
        for byte in bytes {
            switch mode {
            case .switched, .lost:
                return statuses
            case .body(let left):
                mode = left > 1 ? .body(left: left - 1) : .head
            case .head:
                head.append(byte)
                guard head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) else {
                    if head.count > 16_384 { mode = .lost }
                    continue
                }
                guard let (status, length) = Self.read(head) else {
                    mode = .lost
                    return statuses
                }
                head.removeAll(keepingCapacity: true)
                responses += 1
                statuses.append(status)
                if status == 101 {
                    mode = .switched
                } else if let length {
                    mode = length > 0 ? .body(left: length) : .head
                } else {
                    mode = .lost
                }
            }
        }
        return statuses
    }

    /// A head's status and `Content-Length` (nil when it gives none).
    private static func read(_ head: [UInt8]) -> (Int, Int?)? {
        let lines = head.split(separator: 10)
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: UInt8(ascii: " "))
        guard parts.count >= 2, let status = Int(String(decoding: parts[1], as: UTF8.self)) else { return nil }
        var length: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            if String(decoding: line[..<colon], as: UTF8.self).lowercased() == "content-length" {
                let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).filter { $0.isNumber }
                length = Int(value)
            }
        }
        return (status, length)
    }
}
