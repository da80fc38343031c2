import BoardProtocol
import Testing
import WebRules
@testable import WebService

@Suite("Where the pages meet the board")
struct PageHubTests {
    /// Everything waiting for `page`, as its WebSocket would take it.
    private func takeAll(from hub: PageHub, _ page: BoardRelay.PageID) -> [String] {
        var taken: [String] = []
        while let frame = hub.take(from: page) { taken.append(String(decoding: frame.payload, as: UTF8.self)) }
        return taken
    }

    @Test("a page that falls more than its backlog behind is ended after what it was sent, not sent a board with gaps")
    func slowPageClosed() {
        let hub = PageHub(playing: true) { _ in }
        let page = hub.join()
        let other = hub.join()
        for index in 0..<PageHub.pageBacklog + 10 { hub.send("\(index)", to: page) }
        let received = takeAll(from: hub, page)
        // The board as it was when the page joined, then the first of the messages, in order.
        let numbers = received.compactMap(Int.init)
        #expect(received.count == PageHub.pageBacklog)
        #expect(numbers == Array(0..<numbers.count))
        #expect(hub.isFinished(page))
        #expect(!hub.isFinished(other))
        #expect(hub.pageCount == 1)
        hub.leave(page)
        hub.leave(other)
        #expect(hub.pageCount == 0)
    }

    @Test("a page holds at most 256 KiB it has not taken: one that asks for large answers and never reads is ended at the bound; one that reads is not")
    func backlogInBytes() {
        let hub = PageHub(playing: true) { _ in }
        let reader = hub.join()
        let stalled = hub.join()
        let large = String(repeating: "h", count: 70_000)
        _ = takeAll(from: hub, reader)  // the board as it was when it joined
        for _ in 0..<10 {
            hub.send(large, to: reader)
            hub.send(large, to: stalled)
            // The reader's socket takes each message as it comes.
            #expect(takeAll(from: hub, reader) == [large])
            #expect(hub.waiting(for: reader) == 0)
        }
        #expect(hub.waiting(for: stalled) == nil)
        let received = takeAll(from: hub, stalled).map(\.utf8.count)
        // What was held when the next would have gone over the bound, and nothing after it.
        #expect(received.dropFirst().allSatisfy { $0 == large.utf8.count })
        #expect(received.reduce(0, +) <= PageHub.pageBacklogBytes)
        let fitting = (PageHub.pageBacklogBytes - (received.first ?? 0)) / large.utf8.count
        #expect(received.count == 1 + fitting)
        #expect(hub.isFinished(stalled))
        #expect(hub.waiting(for: reader) != nil)
    }

    @Test("a page asks for the history only once it has taken most of what it was sent")
    func historyOnlyForAReader() {
        var asked: [String] = []
        let hub = PageHub(playing: true) { asked.append($0) }
        hub.boardConnected()
        let page = hub.join()
        hub.page(page, asked: .history(.all))
        #expect(asked == [APIRequest.history(.all).line])
        hub.boardSent(#"{"games":[],"type":"history"}"#)
        // 20 KB it has not taken: the next history is not asked for.
        hub.send(String(repeating: "x", count: 20_000), to: page)
        hub.page(page, asked: .history(.all))
        #expect(asked.count == 1)
        // It reads everything: then it may.
        _ = takeAll(from: hub, page)
        hub.page(page, asked: .history(.all))
        #expect(asked.count == 2)
    }

    @Test("a page that closes is answered with a close frame, the last it is sent; one that has said all it will gets what waits, then nothing")
    func closing() {
        let hub = PageHub(playing: true) { _ in }
        let page = hub.join()
        _ = takeAll(from: hub, page)
        hub.send("before", to: page)
        hub.close(page, answering: PageFrame(opcode: .close, payload: [0x03, 0xE8, 0x41]))
        hub.send("after", to: page)
        hub.boardSent(#"{"type":"state"}"#)
        #expect(hub.take(from: page) == PageFrame(opcode: .text, payload: Array("before".utf8)))
        #expect(hub.take(from: page) == PageFrame(opcode: .close, payload: [0x03, 0xE8]))
        #expect(hub.take(from: page) == nil)
        #expect(hub.isFinished(page))

        let quiet = hub.join()
        _ = takeAll(from: hub, quiet)
        hub.send("answer", to: quiet)
        hub.end(quiet)
        hub.send("later", to: quiet)
        #expect(takeAll(from: hub, quiet) == ["answer"])
        #expect(hub.isFinished(quiet))
        #expect(hub.pageCount == 0)
    }
}
