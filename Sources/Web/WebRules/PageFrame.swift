/// A WebSocket frame as the web view reads and sends it (RFC 6455 §5.2): whole, never in
/// fragments (``ClientTraffic`` refuses them), its payload unmasked.
public struct PageFrame: Sendable, Hashable {
    public enum Opcode: UInt8, Sendable {
        case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
    }

    public var opcode: Opcode
    public var payload: [UInt8]

    public init(opcode: Opcode, payload: [UInt8]) {
        self.opcode = opcode
        self.payload = payload
    }

    /// As the server sends it: final, unmasked, the shortest length form.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode.rawValue]
        switch payload.count {
        case ..<126:
            bytes.append(UInt8(payload.count))
        case ...0xFFFF:
            bytes += [126, UInt8(payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)]
        default:
            bytes.append(127)
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (56 - 8 * UInt64($0))) }
        }
        return bytes + payload
    }
}
