import Foundation
import Testing
import TestSupport
import WebService
import WebRules

@Suite("The web view's server: its limits, time-outs and half-closes", .serialized)
struct WebServerTests {
    @Test("a head trickled byte by byte is closed when its time is up, not before")
    func headTrickle() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            #expect(client.send("GET / HTTP/1.1\r\nHo"))
            #expect(web.events.wait { $0 == .headBegan })
            web.advance(by: .seconds(4))
            #expect(client.send("st: local"))
            try web.serverHasLooked()
            #expect(web.events.count { $0 == .timedOut } == 0)
            web.advance(by: .seconds(1))
            #expect(web.events.wait { $0 == .timedOut })
            #expect(client.isClosedByServer())
        }
        await web.stop()
    }

    @Test("a client silent for a minute is closed; one that asks in time is answered")
    func idle() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            #expect(web.events.wait { $0 == .accepted })
            web.advance(by: .seconds(59))
            let page = try client.get("/", host: "localhost")
            #expect(page.status == 200)
            web.advance(by: .seconds(59))
            try web.serverHasLooked()
            #expect(web.events.count { $0 == .timedOut } == 0)
            web.advance(by: .seconds(2))
            #expect(web.events.wait { $0 == .timedOut })
            #expect(client.isClosedByServer())
        }
        await web.stop()
    }

    @Test("a client that takes nothing of what waits for it for 20 s is closed; one that reads is not")
    func stalledClient() async throws {
        let web = try RunningWeb()
        try await blocking {
            let stalled = try WebClient(port: web.port, receiveBuffer: 4096)
            // Requests enough that their answers fill every buffer on the way back.
            let request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
            stalled.send(String(repeating: request, count: 400))
            #expect(web.events.wait { $0 == .accepted })
            // The answers pile up to the server's bound. The client's socket may still
            // take a little after that (the stall is timed from its last take), but not once
            // its buffers are full: the clock is moved on a stall at a time until the server
            // closes it. (The time-out's "not before" is the idle and head tests': one clock
            // check serves all three.)
            #expect(web.events.wait { $0 == .clientBehind })
            web.advance(by: .seconds(21))
            if !web.events.wait({ $0 == .timedOut }) {
                // Its socket took a last few bytes after the clock moved: one stall more.
                web.advance(by: .seconds(21))
                #expect(web.events.wait { $0 == .timedOut }, "\(web.events.all.filter { $0 != .headBegan })")
            }
            let reader = try WebClient(port: web.port)
            for _ in 0..<3 {
                #expect(try reader.get("/", host: "localhost").status == 200)
                web.advance(by: .seconds(15))
            }
            #expect(web.events.count { $0 == .timedOut } == 1)
        }
        await web.stop()
    }

    @Test("64 connections are taken, 16 at most from one address; the next is answered 503 and closed; one closing makes room")
    func connectionLimit() async throws {
        let web = try RunningWeb()
        try await blocking {
            var clients: [WebClient] = []
            for index in 0..<64 { clients.append(try WebClient(port: web.port, from: "127.0.0.\(2 + index / 16)")) }
            #expect(web.events.wait(for: 64) { $0 == .accepted })
            let extra = try WebClient(port: web.port)
            let busy = try extra.response()
            #expect(busy.status == 503)
            #expect(busy.body.contains("try later"))
            #expect(extra.isClosedByServer())
            clients.removeLast()
            #expect(web.events.wait { $0 == .closed })
            let next = try WebClient(port: web.port)
            #expect(try next.get("/", host: "localhost").status == 200)
            #expect(web.service.server.census.turnedAway == 1)
        }
        await web.stop()
    }

    @Test("one address that opens slow heads until it is turned away keeps nobody else out")
    func perAddress() async throws {
        let web = try RunningWeb()
        try await blocking {
            var slow: [WebClient] = []
            for _ in 0..<16 {
                let client = try WebClient(port: web.port, from: "127.0.0.9")
                client.send("GET / HTTP/1.1\r\nHo")
                slow.append(client)
            }
            #expect(web.events.wait(for: 16) { $0 == .headBegan })
            for _ in 0..<3 {
                let more = try WebClient(port: web.port, from: "127.0.0.9")
                let refused = try more.response()
                #expect(refused.status == 503)
                #expect(refused.body.contains("close a page"))
            }
            #expect(web.service.server.census.turnedAwayFromAddress == 3)
            // Another visitor, and then the page's own requests from one more, all answered.
            for source in ["127.0.0.1", "127.0.0.10"] {
                for _ in 0..<6 {
                    let visitor = try WebClient(port: web.port, from: source)
                    #expect(try visitor.get("/", host: "localhost").status == 200)
                }
            }
            #expect(web.service.server.census.turnedAway == 0)
        }
        await web.stop()
    }

    @Test("a client that shuts its sending side after its requests is answered, every one, then closed")
    func halfClose() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            let request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
            client.send(request + request + "GET /nothing-here HTTP/1.1\r\nHost: localhost\r\n\r\n" + "GET / HTTP/1.1\r\nHo")
            client.shutSending()
            #expect(try client.response().status == 200)
            #expect(try client.response().status == 200)
            #expect(try client.response().status == 404)
            #expect(client.isClosedByServer())
        }
        await web.stop()
    }

    @Test("a page that shuts its sending side after its messages gets their answers, then the connection closes")
    func webSocketHalfClose() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            let opened = try client.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)")
            #expect(opened.status == 101)
            #expect(client.text(containing: #""type":"web""#) != nil)
            #expect(client.sendText(#"{"command":"ping"}"#))
            client.shutSending()
            #expect(client.text(containing: #""type":"pong""#) != nil)
            #expect(client.isClosedByServer())
        }
        await web.stop()
    }

    @Test("a malformed head after good ones: the good ones are answered, then a 400 that says why, and nothing after it is read")
    func malformedAfterGood() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            let request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
            client.send(request + "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade : websocket\r\n\r\n" + request)
            #expect(try client.response().status == 200)
            let refused = try client.response()
            #expect(refused.status == 400)
            #expect(refused.body.contains("a header name that is not a token"))
            #expect(client.isClosedByServer())
            #expect(web.events.count { $0 == .refused(.malformed(.fieldName)) } == 1)
        }
        await web.stop()
    }

    @Test("a head over 8 KiB and a request with a body are refused, the connection closed")
    func heads() async throws {
        let web = try RunningWeb()
        try await blocking {
            let long = try WebClient(port: web.port)
            long.send("GET / HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: 9000))
            #expect(web.events.wait { $0 == .refused(.headTooLarge) })
            #expect(long.isClosedByServer())
            let body = try WebClient(port: web.port)
            body.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello")
            #expect(web.events.wait { $0 == .refused(.body) })
            #expect(try body.response().status == 413)
            #expect(body.isClosedByServer())
        }
        await web.stop()
    }

    @Test("WebSocket frames over 1 KiB, fragmented, binary or announcing 2^62 bytes close the socket at their header")
    func frames() async throws {
        let web = try RunningWeb()
        try await blocking {
            let cases: [([UInt8], ClientTraffic.Refusal)] = [
                (WebClient.frame(payload: Array(repeating: 0x20, count: 1025)), .messageTooLarge),
                (WebClient.frame(payload: Array("{}".utf8), fin: false), .fragmented),
                (WebClient.frame(opcode: 0x2, payload: [1, 2, 3]), .frameKind(2)),
                ([0x81, 0xFF, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], .messageTooLarge),
            ]
            for (bytes, refusal) in cases {
                let client = try WebClient(port: web.port)
                let opened = try client.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)")
                #expect(opened.status == 101)
                #expect(client.text(containing: #""type":"web""#) != nil)
                client.send(bytes)
                #expect(web.events.wait { $0 == .refused(refusal) })
                #expect(client.isClosedByServer())
            }
        }
        await web.stop()
    }

    @Test("a page that shuts its sending side gets the board's answers to what it asked, then a close frame")
    func pageHalfCloseGetsBoardAnswers() async throws {
        let board = try FakeBoard()
        let web = try RunningWeb(board: board.path)
        try await blocking {
            let client = try WebClient(port: web.port)
            #expect(try client.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)").status == 101)
            #expect(client.text(containing: #""type":"state""#) != nil)
            #expect(client.sendText(#"{"command":"status"}"#))
            client.shutSending()
            // A turn of the server after the page's end: the board answers a page that has shut
            // its side.
            try web.serverHasLooked()
            board.answer()
            #expect(client.text(containing: #""type":"ok""#) != nil)
            #expect(client.nextText() == nil && client.sawClose)
            #expect(client.isClosedByServer())
        }
        await web.stop()
        board.stop()
    }

    @Test("a burst of 300 messages read at once is answered whole to a page that reads: it is not closed at the hub's bound")
    func burstAnswered() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            #expect(try client.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)").status == 101)
            #expect(client.text(containing: #""type":"web""#) != nil)
            let ping = WebClient.frame(payload: Array(#"{"command":"ping"}"#.utf8))
            #expect(client.send(Array(Array(repeating: ping, count: 300).joined())))
            var pongs = 0
            while pongs < 300, let text = client.nextText() {
                if text.contains(#""type":"pong""#) { pongs += 1 }
            }
            #expect(pongs == 300)
            #expect(web.service.pageCount == 1)
        }
        await web.stop()
    }

    @Test("a board that accepts and closes at once is tried again after the retry, not in a loop")
    func boardThatClosesAtOnce() async throws {
        let board = try FakeBoard(closing: true)
        let web = try RunningWeb(board: board.path)
        try await blocking {
            // The clock stands still: no retry is due. Given real time, a loop would reconnect
            // thousands of times.
            let page = try WebClient(port: web.port)
            #expect(try page.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)").status == 101)
            #expect(page.text(containing: #""reason":"board-closed""#) != nil)
            try web.serverHasLooked()
            let beforeRetry = try board.acceptedSoFar()
            #expect(beforeRetry == 1)
            web.advance(by: .seconds(1))
            try web.serverHasLooked()
            let afterRetry = try board.acceptedSoFar()
            #expect(afterRetry == 2)
        }
        await web.stop()
        board.stop()
    }

    @Test("a client that pipelines thousands of requests and takes the answers slowly holds one buffer and one response at most, and is not timed out while it reads")
    func pipeliningReader() async throws {
        let web = try RunningWeb()
        let largest = try FileManager.default.contentsOfDirectory(atPath: pageFolder).map {
            (try FileManager.default.attributesOfItem(atPath: pageFolder + "/" + $0)[.size] as? Int) ?? 0
        }.max() ?? 0
        try await blocking {
            let client = try WebClient(port: web.port, receiveBuffer: 4096)
            let request = "GET /board.js HTTP/1.1\r\nHost: localhost\r\n\r\n"
            #expect(client.send(String(repeating: request, count: 1000)))
            var taken = 0
            for round in 0..<6 {
                for _ in 0..<40 { taken += client.drain(upTo: 4096) }
                // A minute in all between the client's last request and its last read: taking
                // what it asked for is not silence.
                if round < 5 { web.advance(by: .seconds(12)) }
            }
            try web.serverHasLooked()
            #expect(web.events.count { $0 == .timedOut } == 0)
            #expect(taken > 0)
            let held = web.service.server.census.mostHeld
            #expect(held <= WebServer.Limits().buffer + largest + 1024, "held \(held)")
        }
        await web.stop()
    }
}
