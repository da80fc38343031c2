import Basics
import FlyingFox
import FlyingSocks
import Foundation
import Synchronization
import Testing
import TestSupport
import TicTacToe
@testable import WebService
import WebView

/// FlyingFox, the web view's HTTP server, answering every request with what it read of it (the
/// method and every header), behind a gate of its own: so that a test can set what the gate
/// passed beside what the server read.
final class EchoBehindGate: Sendable {
    final class Count: Sendable {
        let value = Mutex(0)
    }

    struct Echo: HTTPHandler {
        let seen: Count

        func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
            seen.value.withLock { $0 += 1 }
            var fields: [String: String] = [:]
            for name in request.headers.keys { fields[name.rawValue.lowercased()] = request.headers[name] }
            let reading = Reading(method: request.method.rawValue, fields: fields)
            return HTTPResponse(statusCode: .ok, body: try JSONEncoder().encode(reading))
        }
    }

    /// What one side read of a head.
    struct Reading: Codable, Equatable {
        var method: String
        var fields: [String: String]
    }

    let gate: Gate
    let port: UInt16
    private let seen = Count()
    private let folder: String
    private let task: Task<Void, any Error>
    private let server: HTTPServer

    init() async throws {
        folder = try TextFile.makeTemporaryDirectory(prefix: "tictactoe-echo")
        let socket = folder + "/http.sock"
        server = HTTPServer(address: sockaddr_un.unix(path: socket), logger: .disabled, handler: Echo(seen: seen))
        let server = server
        task = Task(priority: .high) { try await server.run() }
        // A guard against a hang, not a figure: under a loaded machine the cooperative pool may be
        // slow to start the server (10 s ran out once at a load average of 17 on two cores).
        try await server.waitUntilListening(timeout: 60)
        let listener = try TCPListener.listen(host: "127.0.0.1", port: 0)
        port = TCPListener.port(of: listener) ?? 0
        var limits = Gate.Limits()
        // One client after another, each closing as the gate closes another: none is turned away.
        limits.perAddress = limits.connections
        gate = Gate(listeners: [listener], upstream: socket, limits: limits)
        gate.start()
    }

    /// Requests the server has read.
    var requestsSeen: Int { seen.value.withLock { $0 } }

    func stop() async {
        gate.stop()
        task.cancel()
        _ = try? await task.value
        unlink(folder + "/http.sock")
        rmdir(folder)
    }
}

/// Heads that a lenient reader and a strict one could read differently, and heads that are
/// fine: made from a browser's head by seeded random changes of the kinds request smuggling
/// uses.
struct AmbiguousHeads {
    var generator: SeededRandom

    static let fields = [
        "Host: 127.0.0.1:8080", "User-Agent: Mozilla/5.0 (X11; Linux x86_64)", "Accept: text/html,*/*;q=0.8",
        "Accept-Language: en-GB,en;q=0.9", "Cache-Control: no-cache", "Connection: keep-alive",
    ]

    static let smuggled = [
        "Upgrade: websocket", "Upgrade : websocket", "upgrade:websocket", " Upgrade: websocket", "\tUpgrade: websocket",
        "Content-Length: 5", "Content-Length : 5", "Content-Length: 0", "Transfer-Encoding: chunked",
        "Transfer-Encoding : chunked", "Host: attacker.example", "Host : attacker.example", "X-Padding:   spaced   ",
        "X-Tab:\tvalue\t", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "X-Empty:",
        "X-Ctl: a\u{1}b", "X-High: caf\u{e9}", "Ho\u{17F}t: attacker.example", "X Y: z", "Origin: http://127.0.0.1:8080",
    ]

    mutating func next() -> [UInt8] {
        var lines = ["GET / HTTP/1.1"] + Self.fields.shuffled(using: &generator)
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            let line = Self.smuggled.randomElement(using: &generator) ?? ""
            lines.insert(line, at: Int.random(in: 1...lines.count, using: &generator))
        }
        if Bool.random(using: &generator) {
            // A request line a lenient reader trims or splits its own way.
            lines[0] = ["GET  / HTTP/1.1", "GET / HTTP/1.1 ", "GET\t/ HTTP/1.1", "GET / HTTP/1.0", "GET /?a=b HTTP/1.1", "get / HTTP/1.1"]
                .randomElement(using: &generator) ?? lines[0]
        }
        var text = lines.joined(separator: "\r\n") + "\r\n\r\n"
        if Int.random(in: 0..<4, using: &generator) == 0 {
            // Line ends a lenient reader accepts: bare LFs somewhere, or a bare CR.
            let ends = ["\n", "\r"]
            var characters = Array(text)
            // Not the last: a head whose last line end is a bare CR has not ended, and waits.
            let crs = characters.indices.dropLast().filter { characters[$0] == "\r\n" }
            if let at = crs.randomElement(using: &generator) {
                characters[at] = Character(ends.randomElement(using: &generator) ?? "\n")
            }
            text = String(characters)
        }
        return Array(text.utf8)
    }
}


@Suite("One reading of a request: what passes the gate, FlyingFox reads as the gate did", .serialized)
struct StrictHeadTests {
    @Test("2,000 heads of the kinds smuggling uses: each is refused with a 4xx before the server reads a byte, or the server reads exactly the gate's reading", .soak)
    func differential() async throws {
        let echo = try await EchoBehindGate()
        try await blocking {
            var heads = AmbiguousHeads(generator: SeededRandom(seed: 20_261_126))
            var passed = 0
            var refused = 0
            for _ in 0..<2000 {
                let head = heads.next()
                let before = echo.requestsSeen
                let client = try WebClient(port: echo.port)
                client.send(head)
                let shown = String(decoding: head, as: UTF8.self).debugDescription
                guard let response = try? client.response() else {
                    Issue.record("no response to \(shown)")
                    break
                }
                if let gateReading = try? RequestHead(parsing: head) {
                    // The gate's refusals beyond the head's grammar: bodies.
                    if gateReading["content-length"].map({ $0 != "0" }) == true || gateReading["transfer-encoding"] != nil {
                        #expect(response.status == 413, "\(shown)")
                        #expect(echo.requestsSeen == before, "\(shown)")
                        refused += 1
                        continue
                    }
                    #expect(response.status == 200, "\(shown)")
                    let serverReading = try JSONDecoder().decode(EchoBehindGate.Reading.self, from: Data(response.body.utf8))
                    var fields: [String: String] = [:]
                    for field in gateReading.fields { fields[field.name] = field.value }
                    #expect(serverReading == EchoBehindGate.Reading(method: gateReading.method, fields: fields), "\(shown)")
                    passed += 1
                } else {
                    #expect(response.status == 400, "\(shown)")
                    #expect(response.body.contains("cannot take this request"), "\(shown)")
                    #expect(echo.requestsSeen == before, "\(shown)")
                    refused += 1
                }
                if response.status != 200 { #expect(client.isClosedByServer(), "\(shown)") }
            }
            // The generator makes both kinds in earnest.
            #expect(passed > 300)
            #expect(refused > 800)
        }
        await echo.stop()
    }
}
