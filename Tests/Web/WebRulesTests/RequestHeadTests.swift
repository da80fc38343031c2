import Testing
import WebRules

@Suite("A request head, read strictly")
struct RequestHeadTests {
    static func head(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a browser's head is read: method, target, version, fields in lower case without the spaces around values")
    func browser() throws {
        let head = try RequestHead(parsing: Self.head(
            "GET /ws?x=1 HTTP/1.1\r\nHost: tictactoe.local:8080\r\nUpgrade:websocket\r\nSec-WebSocket-Key:  a b \t\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\n\r\n"))
        #expect(head.method == "GET")
        #expect(head.target == "/ws?x=1")
        #expect(head.version == "HTTP/1.1")
        #expect(head.fields.map(\.name) == ["host", "upgrade", "sec-websocket-key", "user-agent"])
        #expect(head["HOST"] == "tictactoe.local:8080")
        #expect(head["upgrade"] == "websocket")
        #expect(head["sec-websocket-key"] == "a b")
        #expect(head["origin"] == nil)
    }

    @Test("every way two readers could read one head differently is refused, naming what", arguments: [
        ("GET / HTTP/1.1\nHost: x\r\n\r\n", RequestHead.Fault.bareLineFeed),
        ("GET / HTTP/1.1\r\nHost: x\n\n", .bareLineFeed),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", .bareCarriageReturn),
        ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("GET\t/ HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("GET / HTTP/1.1 \r\nHost: x\r\n\r\n", .requestLine),
        ("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("GET /\u{e9} HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("get / HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("GET http://elsewhere.example/ws HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", .requestLine),
        ("GET / HTTP/2\r\nHost: x\r\n\r\n", .version),
        ("GET / http/1.1\r\nHost: x\r\n\r\n", .version),
        ("GET / HTTP/1.1\r\nUpgrade : websocket\r\nHost: x\r\n\r\n", .fieldName),
        ("GET / HTTP/1.1\r\nHost\t: x\r\n\r\n", .fieldName),
        ("GET / HTTP/1.1\r\nHost x\r\n\r\n", .fieldName),
        ("GET / HTTP/1.1\r\n: x\r\nHost: x\r\n\r\n", .fieldName),
        ("GET / HTTP/1.1\r\nHo\u{212A}t: x\r\n\r\n", .fieldName),
        ("GET / HTTP/1.1\r\n Host: x\r\n\r\n", .folded),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\tUpgrade: websocket\r\n\r\n", .folded),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: \u{7}\r\n\r\n", .fieldValue("x-a")),
        ("GET / HTTP/1.1\r\nHost: x\u{e9}\r\n\r\n", .fieldValue("host")),
        ("GET / HTTP/1.1\r\nHost: x\u{0}\r\n\r\n", .fieldValue("host")),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .duplicate("host")),
        ("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nupgrade: websocket\r\n\r\n", .duplicate("upgrade")),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n", .duplicate("content-length")),
        ("GET / HTTP/1.1\r\nX: y\r\n\r\n", .noHost),
        ("GET / HTTP/1.1\r\nHost:   \r\n\r\n", .noHost),
    ])
    func refused(text: String, fault: RequestHead.Fault) {
        #expect(throws: fault) { try RequestHead(parsing: Self.head(text)) }
        #expect(!fault.description.isEmpty)
    }

    @Test("the reader refuses a bare LF or CR at once, not when the head would have ended (it may never end)")
    func bareLineEndsAtOnce() throws {
        var traffic = ClientTraffic()
        #expect(traffic.scan(Self.head("GET / HTTP/1.1\n")).refusal == ClientTraffic.Refusal.malformed(.bareLineFeed))
        var other = ClientTraffic()
        #expect(other.scan(Self.head("GET / HTTP/1.1\r\nHost: x\r\r\n")).refusal == ClientTraffic.Refusal.malformed(.bareCarriageReturn))
    }

    @Test("smuggled bodies: any Content-Length but 0 and any Transfer-Encoding, however spelt; each refusal has its answer", arguments: [
        "Content-Length: 5", "content-length: 00", "Transfer-Encoding: chunked", "transfer-encoding: identity",
    ])
    func bodies(field: String) throws {
        var traffic = ClientTraffic()
        #expect(traffic.scan(Self.head("GET / HTTP/1.1\r\nHost: x\r\n\(field)\r\n\r\n")).refusal == ClientTraffic.Refusal.body)
        #expect(ClientTraffic.Refusal.body.response?.status == 413)
        #expect(ClientTraffic.Refusal.malformed(.noHost).response?.status == 400)
        #expect(ClientTraffic.Refusal.headTooLarge.response?.status == 431)
        #expect(ClientTraffic.Refusal.unmasked.response == nil)
    }
}
