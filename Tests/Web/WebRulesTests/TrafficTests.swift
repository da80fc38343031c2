import Testing
import WebRules

@Suite("The web view's one reading of what a browser sends")
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

    /// The head `bytes` read as a unit.
    static func head(_ bytes: [UInt8]) throws -> ClientTraffic.Unit {
        .head(try RequestHead(parsing: bytes))
    }

    /// ``frame(opcode:fin:masked:length:announced:)`` as read: its payload unmasked by 1, 2, 3, 4.
    static func text(_ count: Int, opcode: PageFrame.Opcode = .text) -> ClientTraffic.Unit {
        .frame(PageFrame(opcode: opcode, payload: (0..<count).map { 0x41 ^ UInt8(1 + $0 % 4) }))
    }

    func upgraded() throws -> ClientTraffic {
        var traffic = ClientTraffic()
        let result1 = traffic.scan(Self.upgrade)
        let expected = [try Self.head(Self.upgrade)]
        #expect(result1 == .init(units: expected, consumed: Self.upgrade.count))
        traffic.upgraded()
        return traffic
    }

    @Test("a head is kept until it is whole, then read, byte by byte or together; the time-out runs only inside one")
    func heads() throws {
        var traffic = ClientTraffic()
        let page = try Self.head(Self.page)
        for byte in Self.page.dropLast() {
            let held = traffic.scan([byte])
            #expect(held == .init(consumed: 1))
            #expect(traffic.isInsideHead)
        }
        let whole = traffic.scan(Self.page.suffix(1))
        #expect(whole == .init(units: [page], consumed: 1))
        #expect(!traffic.isInsideHead)
        let two = traffic.scan(Self.page + Self.page + Array(Self.page.prefix(5)))
        #expect(two == .init(units: [page, page], consumed: 2 * Self.page.count + 5))
        #expect(traffic.requests == 3)
        #expect(traffic.isInsideHead)
    }

    @Test("asked for one unit, it reads up to the end of the first and leaves the rest")
    func oneAtATime() throws {
        var traffic = ClientTraffic()
        let bytes = Self.page + Self.page
        let first = traffic.scan(bytes, upTo: 1)
        let expected = [try Self.head(Self.page)]
        #expect(first == .init(units: expected, consumed: Self.page.count))
        let second = traffic.scan(bytes[first.consumed...], upTo: 1)
        #expect(second == .init(units: expected, consumed: Self.page.count))
    }

    @Test("a head refused after a good one: the good one is still read, nothing after the refusal is kept or scanned")
    func refusedAfterGood() throws {
        var traffic = ClientTraffic()
        let scanned = traffic.scan(Self.page + Array("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8) + Self.page)
        let expected = [try Self.head(Self.page)]
        #expect(scanned.units == expected)
        #expect(scanned.refusal == .malformed(.duplicate("host")))
        #expect(traffic.scan(Self.page) == .init())
        #expect(traffic.requests == 1)
    }

    @Test("a blank line before a request is skipped, as HTTP allows")
    func blankLine() throws {
        var traffic = ClientTraffic()
        let scanned = traffic.scan(Array("\r\n".utf8) + Self.page)
        let expected = [try Self.head(Self.page)]
        #expect(scanned == .init(units: expected, consumed: Self.page.count + 2))
    }

    @Test("at most four blank lines before a request; a stream of them is refused, and the head's time runs from the first")
    func blankLineStream() throws {
        var traffic = ClientTraffic()
        let blanks = Array(repeating: Array("\r\n".utf8), count: ClientTraffic.blankLinesAllowed).flatMap { $0 }
        #expect(traffic.scan(blanks).refusal == nil)
        #expect(traffic.isInsideHead)
        #expect(traffic.scan(Array("\r\n".utf8)).refusal == .malformed(.requestLine))
        var allowed = ClientTraffic()
        let expected = [try Self.head(Self.page)]
        #expect(allowed.scan(blanks + Self.page).units == expected)
        #expect(!allowed.isInsideHead)
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
        let expected = [try Self.head(head)]
        #expect(result5 == .init(units: expected, consumed: head.count))
    }

    @Test("after an upgrade is asked, nothing more is read until it is answered; then it is frames, or heads again")
    func upgrade() throws {
        var traffic = ClientTraffic()
        let early = Self.frame(length: 3)
        let result6 = traffic.scan(Self.upgrade + early)
        let expected = [try Self.head(Self.upgrade)]
        #expect(result6 == .init(units: expected, consumed: Self.upgrade.count))
        #expect(traffic.isWaitingForUpgrade)
        let stillHeld = traffic.scan(early)
        #expect(stillHeld == .init())
        traffic.upgraded()
        let result7 = traffic.scan(early)
        #expect(result7 == .init(units: [Self.text(3)], consumed: early.count))
        #expect(traffic.isWebSocket)

        var refusedUpgrade = ClientTraffic()
        _ = refusedUpgrade.scan(Self.upgrade)
        refusedUpgrade.notUpgraded()
        let result8 = refusedUpgrade.scan(Self.page)
        let page = [try Self.head(Self.page)]
        #expect(result8 == .init(units: page, consumed: Self.page.count))
        #expect(!refusedUpgrade.isWebSocket)
    }

    @Test("frames: whole messages up to 1 KiB are read unmasked, split anywhere; close, ping and pong too")
    func frames() throws {
        var traffic = try upgraded()
        let stream = Self.frame(length: 1024) + Self.frame(length: 0) + Self.frame(length: 200) + Self.frame(opcode: 0x9, length: 4)
            + Self.frame(opcode: 0xA, length: 0) + Self.frame(opcode: 0x8, length: 2)
        var read: [ClientTraffic.Unit] = []
        for chunk in stride(from: 0, to: stream.count, by: 7) {
            read += traffic.scan(stream[chunk..<min(chunk + 7, stream.count)]).units
        }
        #expect(read == [Self.text(1024), Self.text(0), Self.text(200), Self.text(4, opcode: .ping), Self.text(0, opcode: .pong), Self.text(2, opcode: .close)])
    }

    @Test("a frame is read once whole, however it is split")
    func frameSplit() throws {
        var traffic = try upgraded()
        let frame = Self.frame(length: 300)
        // Two bytes of length after the first two: the header is 8 bytes with the mask.
        for byte in frame.dropLast() {
            #expect(traffic.scan([byte]) == .init(consumed: 1))
        }
        #expect(traffic.scan(frame.suffix(1)) == .init(units: [Self.text(300)], consumed: 1))
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
            (Self.frame(opcode: 0x9, length: 126), .controlTooLarge),
            (Self.frame(opcode: 0x8, length: 200), .controlTooLarge),
        ]
        for (bytes, refusal) in cases {
            var traffic = try upgraded()
            #expect(traffic.scan(bytes).refusal == refusal)
        }
    }
}
