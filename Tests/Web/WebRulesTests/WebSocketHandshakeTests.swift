import Testing
@testable import WebRules

@Suite("The WebSocket handshake's accept value and checks (RFC 6455 §4.2)")
struct WebSocketHandshakeTests {
    @Test("SHA-1 as FIPS 180-4's examples give it, a message of two blocks included")
    func sha1() {
        let hex = { (bytes: [UInt8]) in bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        #expect(hex(WebSocketHandshake.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(WebSocketHandshake.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(hex(WebSocketHandshake.sha1(Array(twoBlocks.utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test("the RFC's example key gives the RFC's accept value")
    func accept() throws {
        let head = try RequestHead(parsing: Array(
            "GET /ws HTTP/1.1\r\nHost: board\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8))
        #expect(try WebSocketHandshake.accept(head).get() == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("an upgrade without the protocol's headers is refused, saying which")
    func refusals() throws {
        let good = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (bad, says) in [
            (good.replacing("Upgrade: websocket", with: "Upgrade: h2c"), "Upgrade"),
            (good.replacing("Connection: Upgrade", with: "Connection: keep-alive"), "Connection"),
            (good.replacing("dGhlIHNhbXBsZSBub25jZQ==", with: "c2hvcnQ="), "Sec-WebSocket-Key"),
            (good.replacing("Version: 13", with: "Version: 8"), "Sec-WebSocket-Version"),
        ] {
            let head = try RequestHead(parsing: Array("GET /ws HTTP/1.1\r\nHost: board\r\n\(bad)\r\n".utf8))
            guard case .failure(let refusal) = WebSocketHandshake.accept(head) else {
                Issue.record("accepted: \(bad)")
                continue
            }
            #expect(refusal.text.contains(says))
        }
    }

    @Test("a version the server does not speak is answered with its own (426), and HTTP/1.0 cannot upgrade")
    func versions() throws {
        let good = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        let eight = try RequestHead(parsing: Array("GET /ws HTTP/1.1\r\nHost: board\r\n\(good)Sec-WebSocket-Version: 8\r\n\r\n".utf8))
        guard case .failure(let wrongVersion) = WebSocketHandshake.accept(eight) else {
            Issue.record("version 8 was accepted")
            return
        }
        #expect(wrongVersion.wantsVersion)
        let old = try RequestHead(parsing: Array("GET /ws HTTP/1.0\r\nHost: board\r\n\(good)Sec-WebSocket-Version: 13\r\n\r\n".utf8))
        guard case .failure(let tooOld) = WebSocketHandshake.accept(old) else {
            Issue.record("an HTTP/1.0 upgrade was accepted")
            return
        }
        #expect(tooOld.text.contains("HTTP/1.1"))
        #expect(!tooOld.wantsVersion)
    }
}
