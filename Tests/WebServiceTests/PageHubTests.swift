import FlyingFox
import Testing
@testable import WebService

@Suite("Where the pages meet the board")
struct PageHubTests {
    @Test("a page that falls more than its backlog behind is closed after what it was sent, not sent a board with gaps")
    func slowPageClosed() async {
        let hub = PageHub(playing: true) { _ in }
        let (page, messages) = hub.join()
        let (other, _) = hub.join()
        for index in 0..<PageHub.pageBacklog + 10 { hub.send("\(index)", to: page) }
        var received: [String] = []
        for await case .text(let text) in messages { received.append(text) }
        // The board as it was when the page joined, then the first of the messages, in order.
        let numbers = received.compactMap(Int.init)
        #expect(received.count == PageHub.pageBacklog)
        #expect(numbers == Array(0..<numbers.count))
        #expect(hub.pageCount == 1)
        hub.leave(page)
        hub.leave(other)
        #expect(hub.pageCount == 0)
    }
}
