#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The server's side of a WebSocket's opening handshake (RFC 6455 §4.2): whether an upgrade
/// request asks for a WebSocket as the protocol says, and the `Sec-WebSocket-Accept` that proves
/// the server read its key.
///
/// Pure. SHA-1 is here only for the accept value (the protocol's choice, not for secrecy).
public enum WebSocketHandshake {
    /// The accept value for the request's `Sec-WebSocket-Key`, or what is wrong with the request:
    /// a 400's body, or, for a version the server does not speak, a 426's that names its own
    /// (``Refusal/wantsVersion``; RFC 6455 §4.4).
    public static func accept(_ head: RequestHead) -> Result<String, Refusal> {
        guard head.version == "HTTP/1.1" else { return .failure(Refusal("a WebSocket's upgrade needs HTTP/1.1")) }
        guard head["upgrade"]?.lowercased() == "websocket" else { return .failure(Refusal("the Upgrade header must be websocket")) }
        guard head.connectionOptions.contains("upgrade") else { return .failure(Refusal("the Connection header must include Upgrade")) }
        guard let key = head["sec-websocket-key"], Data(base64Encoded: key)?.count == 16 else {
            return .failure(Refusal("Sec-WebSocket-Key must be 16 bytes in base64"))
        }
        guard head["sec-websocket-version"] == version else {
            return .failure(Refusal("Sec-WebSocket-Version must be \(version)", wantsVersion: true))
        }
        return .success(acceptValue(for: key))
    }

    /// The one version of the protocol the server speaks.
    public static let version = "13"

    public struct Refusal: Error, Sendable, Equatable {
        public var text: String
        /// The request named a version the server does not speak: answered 426 with
        /// `Sec-WebSocket-Version` naming ``WebSocketHandshake/version``.
        public var wantsVersion = false

        init(_ text: String, wantsVersion: Bool = false) {
            self.text = text
            self.wantsVersion = wantsVersion
        }
    }

    /// `base64(SHA-1(key + the protocol's GUID))`.
    public static func acceptValue(for key: String) -> String {
        Data(sha1(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// FIPS 180-4's SHA-1 of `message`.
    static func sha1(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        for block in stride(from: 0, to: padded.count, by: 64) {
            compress(padded[block..<(block + 64)], into: &state)
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    private static func compress(_ block: ArraySlice<UInt8>, into state: inout [UInt32]) {
        var w = [UInt32](repeating: 0, count: 80)
        for index in 0..<16 {
            let start = block.startIndex + 4 * index
            w[index] = block[start..<(start + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }
        for index in 16..<80 {
            let mixed = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
            w[index] = mixed << 1 | mixed >> 31
        }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for index in 0..<80 {
            let (f, k): (UInt32, UInt32) =
                switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
            let next = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
            (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, next)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
    }
}
