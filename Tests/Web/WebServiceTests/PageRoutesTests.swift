import Basics
import Testing
import TestSupport
import WebService

@Suite("What the web view serves, and to whom", .serialized)
struct PageRoutesTests {
    @Test("the page's files, each with its type and the security headers; nothing else, no listing, no way out of the folder")
    func files() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            for (path, type) in [("/", "text/html"), ("/board.js", "text/javascript"), ("/board.css", "text/css"), ("/icon.svg", "image/svg+xml"),
                                 ("/manifest.webmanifest", "application/manifest+json"), ("/icon-192.png", "image/png"), ("/icon-512.png", "image/png")] {
                let response = try client.get(path, host: "localhost:\(web.port)")
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
                #expect(response.headers["x-content-type-options"] == "nosniff")
                let policy = try #require(response.headers["content-security-policy"])
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && policy.contains("frame-ancestors 'none'"))
            }
            // The icons are binary, served byte for byte.
            let icon = try client.get("/icon-512.png", host: "localhost:\(web.port)")
            let file = try TextFile.readBytes(pageFolder + "/icon-512.png")
            #expect(icon.bytes == file)
            #expect(Array(icon.bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            for path in ["/index.html/", "/../Package.swift", "/%2e%2e/Package.swift", "/web/", "/.git/config", "/board.js/../../README.md"] {
                let response = try client.get(path, host: "localhost")
                #expect(response.status == 404, "\(path)")
                #expect(response.headers["content-security-policy"] != nil)
            }
            let head = try WebClient(port: web.port)
            head.send("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try head.response().status == 405)
        }
        await web.stop()
    }

    @Test("a foreign Host (DNS rebinding) is refused with 421, saying what to do")
    func foreignHost() async throws {
        let web = try RunningWeb()
        try await blocking {
            let client = try WebClient(port: web.port)
            let response = try client.get("/", host: "attacker.example:\(web.port)")
            #expect(response.status == 421)
            #expect(response.body.contains("web.hosts"))
        }
        await web.stop()
    }

    @Test("/qr.svg: the QR code of the address the page came by, an SVG with its title; a foreign, malformed or oversized Host is refused as for any path")
    func qrCode() async throws {
        let web = try RunningWeb()
        try await blocking {
            for host in ["localhost:\(web.port)", "127.0.0.1:\(web.port)"] {
                let response = try WebClient(port: web.port).get("/qr.svg", host: host)
                #expect(response.status == 200, "\(host)")
                #expect(response.headers["content-type"] == "image/svg+xml")
                #expect(response.headers["content-security-policy"] != nil)
                #expect(response.body.hasPrefix("<svg") && response.body.contains("<title>QR code of this page's address, http://\(host)/</title>"))
            }
            let hostile = [
                "attacker.example:\(web.port)", "localhost:\(web.port)@attacker.example", "localhost:" + String(repeating: "9", count: 2_000),
                String(repeating: "a", count: 3_000) + ".example", "localhost\"><script>",
            ]
            for host in hostile {
                let response = try WebClient(port: web.port).get("/qr.svg", host: host)
                #expect(response.status == 421 || response.status == 431, "\(host.prefix(40)): \(response.status)")
                #expect(!response.body.contains("<svg"))
            }
        }
        await web.stop()
    }

    @Test("the WebSocket opens for the page's own origin only (cross-site WebSocket hijacking)")
    func origins() async throws {
        let web = try RunningWeb()
        try await blocking {
            let host = "127.0.0.1:\(web.port)"
            for origin in ["http://attacker.example", "http://127.0.0.1:1", "null", nil] as [String?] {
                let client = try WebClient(port: web.port)
                let response = try client.upgrade(host: host, origin: origin)
                #expect(response.status == 403, "\(origin ?? "no Origin")")
            }
            let page = try WebClient(port: web.port)
            #expect(try page.upgrade(host: host, origin: "http://\(host)").status == 101)
        }
        await web.stop()
    }

    @Test("with no board, a page hears that it cannot be reached and why, and a command is answered so")
    func noBoard() async throws {
        let web = try RunningWeb()
        try await blocking {
            let page = try WebClient(port: web.port)
            #expect(try page.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)").status == 101)
            // First "connecting to the board", unless the link has tried already; then why.
            let unreachable = try #require(page.text(containing: "no board listening at /nonexistent/board.sock"))
            #expect(unreachable.contains(#""reachable":false"#))
            page.sendText(#"{"command":"press","cell":5}"#)
            #expect(page.text(containing: "cannot be reached") != nil)
            page.sendText(#"{"command":"ping"}"#)
            #expect(page.text(containing: #""type":"pong""#) != nil)
        }
        await web.stop()
    }
}
