import Testing
import WebView

@Suite("What the gate lets through")
struct TrafficTests {
    static let upgrade = Array("GET /ws HTTP/1.1\r\nHost: tictactoe:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8)
    static let page = Array("GET / HTTP/1.1\r\nHost: tictactoe:8080\r\n\r\n".utf8)

    /// A client's masked frame.
    static func frame(opcode: UInt8 = 0x1, fin: Bool = true, masked: Bool = true, length: Int, announced: Int? = nil) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let told = announced ?? length
        let mask: UInt8 = masked ? 0x80 : 0
        if told < 126 {
            bytes.append(mask | UInt8(told))
        } else if told <= 0xFFFF {
            bytes += [mask | 126, UInt8(told >> 8), UInt8(told & 0xFF)]
        } else {
            bytes.append(mask | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((told >> shift) & 0xFF)) }
        }
        if masked { bytes += [1, 2, 3, 4] }
        return bytes + Array(repeating: 0x41, count: length)
    }

    func upgraded() throws -> ClientTraffic {
        var traffic = ClientTraffic()
        let result1 = traffic.scan(Self.upgrade)
        #expect(result1 == .init(passing: Self.upgrade))
        traffic.upgraded()
        return traffic
    }

    @Test("a head is held until it is whole, then passes as it came, byte by byte or together; the time-out runs only inside one")
    func heads() throws {
        var traffic = ClientTraffic()
        for byte in Self.page.dropLast() {
            let held = traffic.scan([byte])
            #expect(held == .init())
            #expect(traffic.isInsideHead)
        }
        let whole = traffic.scan(Self.page.suffix(1))
        #expect(whole == .init(passing: Self.page))
        #expect(!traffic.isInsideHead)
        let two = traffic.scan(Self.page + Self.page + Array(Self.page.prefix(5)))
        #expect(two == .init(passing: Self.page + Self.page))
        #expect(traffic.requests == 3)
        #expect(traffic.isInsideHead)
    }

    @Test("a head refused after a good one: the good one still passes, nothing after the refusal is kept or scanned")
    func refusedAfterGood() {
        var traffic = ClientTraffic()
        let scanned = traffic.scan(Self.page + Array("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8) + Self.page)
        #expect(scanned == .init(passing: Self.page, refusal: .malformed(.duplicate("host"))))
        #expect(traffic.scan(Self.page) == .init())
        #expect(traffic.requests == 1)
    }

    @Test("a blank line before a request is dropped, not passed (FlyingFox would take it for a request line)")
    func blankLine() throws {
        var traffic = ClientTraffic()
        let scanned = traffic.scan(Array("\r\n".utf8) + Self.page)
        #expect(scanned == .init(passing: Self.page))
    }

    @Test("a head over 8 KiB is refused however it comes")
    func longHead() throws {
        var traffic = ClientTraffic()
        let long = Array("GET / HTTP/1.1\r\nX-Pad: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 8200)
        #expect(traffic.scan(long).refusal == ClientTraffic.Refusal.headTooLarge)
        var trickled = ClientTraffic()
        let refusals = long.compactMap { trickled.scan([$0]).refusal }
        #expect(refusals == [.headTooLarge])
    }

    @Test("a request with a body is refused: no route takes one", arguments: ["Content-Length: 5", "content-length:12", "Transfer-Encoding: chunked"])
    func bodies(header: String) throws {
        var traffic = ClientTraffic()
        #expect(traffic.scan(Array("POST / HTTP/1.1\r\nHost: x\r\n\(header)\r\n\r\n".utf8)).refusal == ClientTraffic.Refusal.body)
        var empty = ClientTraffic()
        let head = Array("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".utf8)
        let result5 = empty.scan(head)
        #expect(result5 == .init(passing: head))
    }

    @Test("after an upgrade is asked, the rest waits until the server answers; then it is frames, or heads again")
    func upgrade() throws {
        var traffic = ClientTraffic()
        let early = Self.frame(length: 3)
        let result6 = traffic.scan(Self.upgrade + early)
        #expect(result6 == .init(passing: Self.upgrade, held: early))
        #expect(traffic.isWaitingForUpgrade)
        let stillHeld = traffic.scan(early)
        #expect(stillHeld == .init(held: early))
        traffic.upgraded()
        let result7 = traffic.scan(early)
        #expect(result7 == .init(passing: early))
        #expect(traffic.isWebSocket)

        var refusedUpgrade = ClientTraffic()
        _ = refusedUpgrade.scan(Self.upgrade)
        refusedUpgrade.notUpgraded()
        let result8 = refusedUpgrade.scan(Self.page)
        #expect(result8 == .init(passing: Self.page))
        #expect(!refusedUpgrade.isWebSocket)
    }

    @Test("frames: whole messages up to 1 KiB pass, split anywhere; close, ping and pong pass")
    func frames() throws {
        var traffic = try upgraded()
        let stream = Self.frame(length: 1024) + Self.frame(length: 0) + Self.frame(length: 200) + Self.frame(opcode: 0x9, length: 4)
            + Self.frame(opcode: 0xA, length: 0) + Self.frame(opcode: 0x8, length: 2)
        var passed: [UInt8] = []
        for chunk in stride(from: 0, to: stream.count, by: 7) {
            passed += traffic.scan(stream[chunk..<min(chunk + 7, stream.count)]).passing
        }
        #expect(passed == stream)
    }

    @Test("a frame's header is held until it is whole; its payload passes as it comes")
    func frameHeaderHeld() throws {
        var traffic = try upgraded()
        let frame = Self.frame(length: 300)
        // Two bytes of length after the first two: the header is 8 bytes with the mask.
        for byte in frame.prefix(7) {
            let held = traffic.scan([byte])
            #expect(held == .init())
        }
        let header = traffic.scan(frame[7..<8])
        #expect(header == .init(passing: Array(frame.prefix(8))))
        let payload = traffic.scan(frame[8..<20])
        #expect(payload == .init(passing: Array(frame[8..<20])))
    }

    @Test("frames that break a rule are refused at their header, before their payload")
    func badFrames() throws {
        let cases: [([UInt8], ClientTraffic.Refusal)] = [
            (Self.frame(length: 1025), .messageTooLarge),
            (Array(Self.frame(length: 0, announced: 1 << 40).prefix(14)), .messageTooLarge),
            (Array(Self.frame(length: 0, announced: Int(Int64.max)).prefix(14)), .messageTooLarge),
            (Self.frame(fin: false, length: 3), .fragmented),
            (Self.frame(opcode: 0x0, length: 3), .frameKind(0)),
            (Self.frame(opcode: 0x2, length: 3), .frameKind(2)),
            (Self.frame(opcode: 0x3, length: 3), .frameKind(3)),
            (Self.frame(masked: false, length: 3), .unmasked),
            ([0xC1, 0x83, 1, 2, 3, 4, 0, 0, 0], .reservedBits),
        ]
        for (bytes, refusal) in cases {
            var traffic = try upgraded()
            #expect(traffic.scan(bytes).refusal == refusal)
        }
    }

    @Test("the server's responses: statuses in order, bodies skipped by their length, nothing read after a 101")
    func responses() {
        var server = ServerTraffic()
        let body = "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n" + "HTTP/1.1 101 fake!!!"
        let result10 = server.scan(Array(body.utf8))
        #expect(result10 == [200])
        let switched = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
        var split = server.scan(Array(switched.utf8.prefix(10)))
        split += server.scan(Array(switched.utf8.dropFirst(10)) + [0x81, 0x05] + Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        #expect(split == [101])
        #expect(server.responses == 2)
    }
}
