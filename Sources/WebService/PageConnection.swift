import FlyingSocks
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A WebSocket frame as the web view sends and reads it (RFC 6455 §5.2): whole, never in
/// fragments (the gate passes none: ``ClientTraffic``).
struct PageFrame: Sendable, Equatable {
    enum Opcode: UInt8, Sendable {
        case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
    }

    var opcode: Opcode
    var payload: [UInt8]

    /// As the server sends it: final, unmasked, the shortest length form.
    var encoded: [UInt8] {
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

/// One connection to the HTTP server, read through a buffer: the bytes that follow a head (the
/// next request, or a WebSocket's first frames) stay for whatever reads next.
///
/// Read by one task at a time (the request loop, then a WebSocket's reading), so the buffer is
/// never shared; the socket is written from another task while it is read, as FlyingSocks allows.
final class PageConnection: @unchecked Sendable {
    let socket: AsyncSocket
    private var buffer: [UInt8] = []

    /// What this server refuses to read further (the gate passes nothing near it: 8 KiB heads,
    /// 1 KiB frames).
    enum Overrun: Error { case head, frame }
    static let headLimit = 16 * 1024
    static let frameLimit = 64 * 1024

    init(socket: AsyncSocket) {
        self.socket = socket
    }

    /// The next request head, through its blank line; nil when the client has closed its side
    /// between requests.
    func head() async throws -> [UInt8]? {
        var searched = 0
        while true {
            if let end = Self.headEnd(in: buffer, from: searched) {
                defer { buffer.removeFirst(end) }
                return Array(buffer[..<end])
            }
            searched = max(0, buffer.count - 3)
            guard buffer.count <= Self.headLimit else { throw Overrun.head }
            guard try await fill() else {
                if buffer.isEmpty { return nil }
                throw SocketError.disconnected
            }
        }
    }

    /// The next frame from the client, unmasked. Throws on an unmasked, fragmented or reserved
    /// frame, and on a control frame (close, ping, pong) over 125 bytes (RFC 6455 §5.5), as on the
    /// end of the connection: the page has gone, or is not a browser.
    func frame() async throws -> PageFrame {
        let start = try await bytes(2)
        guard start[0] & 0xF0 == 0x80, start[1] & 0x80 != 0, let opcode = PageFrame.Opcode(rawValue: start[0] & 0x0F) else {
            throw Overrun.frame
        }
        if opcode.rawValue >= PageFrame.Opcode.close.rawValue && start[1] & 0x7F > 125 { throw Overrun.frame }
        var length = UInt64(start[1] & 0x7F)
        if length == 126 {
            length = try await bytes(2).reduce(0) { $0 << 8 | UInt64($1) }
        } else if length == 127 {
            length = try await bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard length <= Self.frameLimit else { throw Overrun.frame }
        let mask = try await bytes(4)
        var payload = try await bytes(Int(length))
        for index in payload.indices { payload[index] ^= mask[index % 4] }
        return PageFrame(opcode: opcode, payload: payload)
    }

    func write(_ bytes: [UInt8]) async throws {
        try await socket.write(Data(bytes))
    }

    private func bytes(_ count: Int) async throws -> [UInt8] {
        while buffer.count < count {
            guard try await fill() else { throw SocketError.disconnected }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// False at the end of the client's bytes.
    private func fill() async throws -> Bool {
        do {
            buffer += try await socket.read(atMost: 4096)
            return true
        } catch SocketError.disconnected {
            return false
        }
    }

    /// Where the head in `bytes` ends (just after CR LF CR LF), searching from `start`.
    private static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4, start <= bytes.count - 4 else { return nil }
        for index in start...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
