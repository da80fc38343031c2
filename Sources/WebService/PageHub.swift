import BoardAPI
import FlyingFox
import Synchronization
import WebView

/// Where the pages meet the board: the ``BoardRelay`` behind a lock, the pages' outgoing
/// message streams, and the ``BoardLink`` that carries lines to the board.
///
/// Thread-safe: pages join, leave and ask from their own tasks, the link reports from its
/// thread. Messages are handed to the pages' streams (which never block) under the lock, so
/// every page gets them in the relay's order: a page that joins as the board changes gets the
/// board as it was, then the change, never the other way round.
///
/// Bounded in bytes: a page holds at most ``pageBacklog`` messages and ``pageBacklogBytes`` bytes
/// of text it has not taken yet (its WebSocket takes a message when it has written the one
/// before). A page that falls further behind is closed rather than sent a board with gaps in it
/// (its browser connects again and is sent the board as it is then). So all pages together hold
/// at most the gate's connections times ``pageBacklogBytes``, whatever they ask and however
/// slowly they read.
final class PageHub: Sendable {
    private struct Page {
        var stream: AsyncStream<WSMessage>.Continuation
        /// Bytes of text handed to the stream and not yet taken from it.
        var waiting = 0
    }

    private struct Pages {
        var relay: BoardRelay
        var pages: [BoardRelay.PageID: Page] = [:]
        var nextID = 1
    }

    /// Messages held for a page not yet sent: a burst of a hundred refused presses fits.
    static let pageBacklog = 256
    /// Bytes held for a page not yet sent: three full histories (about 70 KB each) and the
    /// states between them.
    static let pageBacklogBytes = 256 * 1024

    private let pages: Mutex<Pages>
    private let toBoard: @Sendable (String) -> Void

    init(playing: Bool, toBoard: @escaping @Sendable (String) -> Void) {
        pages = Mutex(Pages(relay: BoardRelay(playing: playing)))
        self.toBoard = toBoard
    }

    var pageCount: Int { pages.withLock { $0.pages.count } }
    var playing: Bool { pages.withLock { $0.relay.playing } }

    /// A new page: its identity and the stream of what it is sent, beginning with the board as
    /// it is now.
    func join() -> (BoardRelay.PageID, AsyncStream<WSMessage>) {
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingOldest(Self.pageBacklog))
        let id = pages.withLock { pages in
            let id = pages.nextID
            pages.nextID += 1
            pages.pages[id] = Page(stream: continuation)
            deliver(pages.relay.pageJoined(id), in: &pages)
            return id
        }
        // What the page's socket takes from this stream is no longer held here.
        let taking = Taking(stream.makeAsyncIterator())
        let taken = AsyncStream<WSMessage> { [weak self] in
            guard let message = await taking.next() else { return nil }
            if case .text(let text) = message { self?.taken(text.utf8.count, by: id) }
            return message
        }
        return (id, taken)
    }

    func leave(_ page: BoardRelay.PageID) {
        let left = pages.withLock { pages in
            pages.relay.pageLeft(page)
            return pages.pages.removeValue(forKey: page)
        }
        left?.stream.finish()
    }

    /// Bytes of text held for `page` now (for tests).
    func waiting(for page: BoardRelay.PageID) -> Int? { pages.withLock { $0.pages[page]?.waiting } }

    private func taken(_ bytes: Int, by page: BoardRelay.PageID) {
        pages.withLock { $0.pages[page]?.waiting -= bytes }
    }

    func page(_ page: BoardRelay.PageID, asked request: APIRequest) {
        pages.withLock { deliver($0.relay.page(page, asked: request), in: &$0) }
    }

    /// Sends one page a message of the web view's own (a pong, an error).
    func send(_ text: String, to page: BoardRelay.PageID) {
        pages.withLock { deliver([.page(page, text)], in: &$0) }
    }

    func boardConnected() { pages.withLock { deliver($0.relay.boardConnected(), in: &$0) } }
    func boardSent(_ line: String) { pages.withLock { deliver($0.relay.boardSent(line), in: &$0) } }
    func boardLost(_ reason: String) { pages.withLock { deliver($0.relay.boardLost(reason), in: &$0) } }

    /// Under the lock. `toBoard` only queues the line for the link's thread.
    private func deliver(_ deliveries: [BoardRelay.Delivery], in pages: inout Pages) {
        for delivery in deliveries {
            switch delivery {
            case .page(let id, let text): send(text, to: id, in: &pages)
            case .everyPage(let text): for id in pages.pages.keys { send(text, to: id, in: &pages) }
            case .board(let line): toBoard(line)
            }
        }
    }

    private func send(_ text: String, to id: BoardRelay.PageID, in pages: inout Pages) {
        guard var page = pages.pages[id] else { return }
        let bytes = text.utf8.count
        if page.waiting + bytes <= Self.pageBacklogBytes, case .enqueued = page.stream.yield(.text(text)) {
            page.waiting += bytes
            pages.pages[id] = page
            return
        }
        pages.pages[id] = nil
        page.stream.finish()
    }
}

/// The one reader of a page's stream: FlyingFox takes a page's messages from one task, one at a
/// time, so the iterator is never used by two at once.
private final class Taking: @unchecked Sendable {
    private var iterator: AsyncStream<WSMessage>.Iterator

    init(_ iterator: AsyncStream<WSMessage>.Iterator) {
        self.iterator = iterator
    }

    func next() async -> WSMessage? { await iterator.next() }
}
