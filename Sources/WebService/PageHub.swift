import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WebView

/// Where the pages meet the board: the ``BoardRelay`` behind a lock, the pages' outgoing
/// streams of WebSocket frames, and the ``BoardLink`` that carries lines to the board.
///
/// Thread-safe: pages join, leave and ask from their own tasks, the link reports from its
/// thread. Messages are handed to the pages' streams (which never block) under the lock, so
/// every page gets them in the relay's order: a page that joins as the board changes gets the
/// board as it was, then the change, never the other way round.
///
/// Bounded in bytes: a page holds at most ``pageBacklog`` frames and ``pageBacklogBytes`` bytes
/// of payload it has not taken yet (its WebSocket takes a frame when it has written the one
/// before, ``PageSocket``). A page that falls further behind is closed rather than sent a board with gaps in it
/// (its browser connects again and is sent the board as it is then). So all pages together hold
/// at most the gate's connections times ``pageBacklogBytes``, whatever they ask and however
/// slowly they read.
final class PageHub: Sendable {
    private struct Page {
        var stream: AsyncStream<PageFrame>.Continuation
        /// Bytes of payload handed to the stream and not yet taken from it.
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
    /// A page asks for the history only with less than this waiting for it.
    static let historyRoom = 16 * 1024

    private let pages: Mutex<Pages>
    private let toBoard: @Sendable (String) -> Void

    init(playing: Bool, toBoard: @escaping @Sendable (String) -> Void) {
        pages = Mutex(Pages(relay: BoardRelay(playing: playing)))
        self.toBoard = toBoard
    }

    var pageCount: Int { pages.withLock { $0.pages.count } }
    var playing: Bool { pages.withLock { $0.relay.playing } }

    /// A new page: its identity and the stream of the frames it is sent, beginning with the
    /// board as it is now. The stream ends after a close frame, or when the page is closed for
    /// falling behind.
    func join() -> (BoardRelay.PageID, AsyncStream<PageFrame>) {
        let (stream, continuation) = AsyncStream<PageFrame>.makeStream(bufferingPolicy: .bufferingOldest(Self.pageBacklog))
        let id = pages.withLock { pages in
            let id = pages.nextID
            pages.nextID += 1
            pages.pages[id] = Page(stream: continuation)
            deliver(pages.relay.pageJoined(id), in: &pages)
            return id
        }
        // What the page's socket takes from this stream is no longer held here.
        let taking = OneReader(stream)
        let taken = AsyncStream<PageFrame> { [weak self] in
            guard let frame = await taking.next() else { return nil }
            self?.taken(frame.payload.count, by: id)
            return frame
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
        pages.withLock { pages in
            // The one large answer, only for a page that has taken most of what it was sent:
            // one that does not read cannot make the web view carry histories it will not take.
            if request == .history, let waiting = pages.pages[page]?.waiting, waiting >= Self.historyRoom {
                deliver([.page(page, BoardRelay.busy(request.command))], in: &pages)
                return
            }
            deliver(pages.relay.page(page, asked: request), in: &pages)
        }
    }

    /// Sends one page a message of the web view's own (a pong, an error).
    func send(_ text: String, to page: BoardRelay.PageID) {
        pages.withLock { deliver([.page(page, text)], in: &$0) }
    }

    /// Sends one page a frame of the protocol's own (a pong frame).
    func send(_ frame: PageFrame, to page: BoardRelay.PageID) {
        pages.withLock { send(frame, to: page, in: &$0) }
    }

    /// Answers a page's close frame with one of its own and ends its stream after it.
    func close(_ page: BoardRelay.PageID, answering frame: PageFrame) {
        pages.withLock { pages in
            let code = frame.payload.count >= 2 ? Array(frame.payload.prefix(2)) : []
            send(PageFrame(opcode: .close, payload: code), to: page, in: &pages)
            pages.pages.removeValue(forKey: page)?.stream.finish()
        }
    }

    func boardConnected() { pages.withLock { deliver($0.relay.boardConnected(), in: &$0) } }
    func boardSent(_ line: String) { pages.withLock { deliver($0.relay.boardSent(line), in: &$0) } }
    func boardLost(_ reason: ErrorReason, _ text: String) { pages.withLock { deliver($0.relay.boardLost(reason, text), in: &$0) } }

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
        send(PageFrame(opcode: .text, payload: Array(text.utf8)), to: id, in: &pages)
    }

    private func send(_ frame: PageFrame, to id: BoardRelay.PageID, in pages: inout Pages) {
        guard var page = pages.pages[id] else { return }
        let bytes = frame.payload.count
        if page.waiting + bytes <= Self.pageBacklogBytes, case .enqueued = page.stream.yield(frame) {
            page.waiting += bytes
            pages.pages[id] = page
            return
        }
        // Closed: nothing more is sent to it or asked for it (its connection ends when the gate
        // sees it take nothing).
        pages.pages[id] = nil
        pages.relay.pageLeft(id)
        page.stream.finish()
    }
}

/// The one reader of a page's stream: ``PageSocket`` writes a page's frames from one task, one
/// at a time, so the iterator is never used by two at once.
final class OneReader: @unchecked Sendable {
    private var iterator: AsyncStream<PageFrame>.Iterator

    init(_ stream: AsyncStream<PageFrame>) {
        iterator = stream.makeAsyncIterator()
    }

    func next() async -> PageFrame? { await iterator.next() }
}
