import BoardProtocol
import Synchronization
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
        for await frame in messages { received.append(String(decoding: frame.payload, as: UTF8.self)) }
        // The board as it was when the page joined, then the first of the messages, in order.
        let numbers = received.compactMap(Int.init)
        #expect(received.count == PageHub.pageBacklog)
        #expect(numbers == Array(0..<numbers.count))
        #expect(hub.pageCount == 1)
        hub.leave(page)
        hub.leave(other)
        #expect(hub.pageCount == 0)
    }

    @Test("a page holds at most 256 KiB it has not taken: one that asks for large answers and never reads is closed at the bound; one that reads is not")
    func backlogInBytes() async {
        let hub = PageHub(playing: true) { _ in }
        let (reader, readerMessages) = hub.join()
        let (stalled, stalledMessages) = hub.join()
        let large = String(repeating: "h", count: 70_000)
        var readerIterator = readerMessages.makeAsyncIterator()
        _ = await readerIterator.next()  // the board as it was when it joined
        for _ in 0..<10 {
            hub.send(large, to: reader)
            hub.send(large, to: stalled)
            // The reader's socket takes each message as it comes.
            guard let text = await readerIterator.next().map({ String(decoding: $0.payload, as: UTF8.self) }) else {
                Issue.record("the reading page was not sent its message")
                break
            }
            #expect(text.count == large.count)
            #expect((hub.waiting(for: reader) ?? 0) < 1000)
        }
        #expect(hub.waiting(for: stalled) == nil)
        var received: [Int] = []
        for await frame in stalledMessages { received.append(frame.payload.count) }
        // What was held when the next would have gone over the bound, and nothing after it.
        #expect(received.dropFirst().allSatisfy { $0 == large.utf8.count })
        #expect(received.reduce(0, +) <= PageHub.pageBacklogBytes)
        let first = received.first ?? 0
        let fitting = (PageHub.pageBacklogBytes - first) / large.utf8.count
        #expect(received.count == 1 + fitting)
        #expect(hub.waiting(for: reader) != nil)
        hub.leave(reader)
        hub.leave(stalled)
    }

    @Test("a page asks for the history only once it has taken most of what it was sent")
    func historyOnlyForAReader() async {
        let asked = Mutex<[String]>([])
        let hub = PageHub(playing: true) { line in asked.withLock { $0.append(line) } }
        hub.boardConnected()
        let (page, frames) = hub.join()
        hub.page(page, asked: .history)
        #expect(asked.withLock { $0 } == [APIRequest.history.line])
        hub.boardSent(#"{"games":[],"type":"history"}"#)
        // 20 KB it has not taken: the next history is not asked for.
        hub.send(String(repeating: "x", count: 20_000), to: page)
        hub.page(page, asked: .history)
        #expect(asked.withLock { $0 }.count == 1)
        // It reads everything: then it may.
        var iterator = frames.makeAsyncIterator()
        while (hub.waiting(for: page) ?? 0) > 0 { _ = await iterator.next() }
        hub.page(page, asked: .history)
        #expect(asked.withLock { $0 }.count == 2)
        hub.leave(page)
    }
}
