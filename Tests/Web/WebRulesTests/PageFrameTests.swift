import Testing
import WebRules

@Suite("What the server writes of a frame, and when it keeps a connection")
struct PageFrameTests {
    @Test("a frame's length in the shortest of the protocol's three forms, final and unmasked")
    func frameLengths() {
        for (count, header) in [(0, [0x81, 0]), (125, [0x81, 125]), (126, [0x81, 126, 0, 126]), (65_535, [0x81, 126, 0xFF, 0xFF]),
            (65_536, [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])] as [(Int, [UInt8])] {
            let encoded = PageFrame(opcode: .text, payload: [UInt8](repeating: 0x61, count: count)).encoded
            #expect(Array(encoded.prefix(header.count)) == header, "\(count)")
            #expect(encoded.count == header.count + count, "\(count)")
        }
        #expect(PageFrame(opcode: .close, payload: [0x03, 0xE8]).encoded == [0x88, 2, 0x03, 0xE8])
    }

    @Test("HTTP/1.1 keeps the connection unless it says close; HTTP/1.0 only when it says keep-alive")
    func keepAlive() throws {
        for (version, connection, keeps) in [
            ("HTTP/1.1", nil, true), ("HTTP/1.1", "close", false), ("HTTP/1.1", "Keep-Alive, Close", false),
            ("HTTP/1.0", nil, false), ("HTTP/1.0", "keep-alive", true),
        ] as [(String, String?, Bool)] {
            let field = connection.map { "Connection: \($0)\r\n" } ?? ""
            let head = try RequestHead(parsing: Array("GET / \(version)\r\nHost: board\r\n\(field)\r\n".utf8))
            #expect(head.keepsConnection == keeps, "\(version) \(connection ?? "-")")
        }
    }
}
