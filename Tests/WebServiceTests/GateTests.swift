import Testing
import TestSupport
import WebService
import WebView

@Suite("The web view's gate: limits the HTTP server does not keep", .serialized)
struct GateTests {
    @Test("a head trickled byte by byte is closed when its time is up, not before")
    func headTrickle() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            #expect(client.send("GET / HTTP/1.1\r\nHo"))
            #expect(web.events.wait { $0 == .headBegan })
            web.advance(by: .seconds(4))
            #expect(client.send("st: local"))
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
            #expect(web.events.count { $0 == .timedOut } == 0)
            web.advance(by: .seconds(2))
            #expect(web.events.wait { $0 == .timedOut })
            #expect(client.isClosedByServer())
        }
        await web.stop()
    }

    @Test("64 connections are taken; the 65th is answered 503 and closed; one closing makes room")
    func connectionLimit() async throws {
        let web = try RunningWeb()
        try await blocking {
            var clients: [WebClient] = []
            for _ in 0..<64 { clients.append(try WebClient(port: web.port)) }
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
            #expect(web.service.gate.census.turnedAway == 1)
        }
        await web.stop()
    }

    @Test("a head over 8 KiB and a request with a body are closed before the server sees them")
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
}
