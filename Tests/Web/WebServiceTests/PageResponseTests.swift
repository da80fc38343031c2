import Testing
@testable import WebService

@Suite("The server's responses")
struct PageResponseTests {
    @Test("every response says its length, and a closing one says so")
    func responses() {
        let text = String(decoding: PageRoutes.text(404, "no").encoded(closing: true), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(text.contains("\r\nContent-Length: 3\r\n") && text.contains("\r\nConnection: close\r\n\r\nno\n"))
    }
}
