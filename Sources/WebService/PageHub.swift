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
/// Bounded: a page holds at most ``pageBacklog`` messages it has not been sent. A page that falls
/// further behind is closed rather than sent a board with gaps in it (its browser connects again
/// and is sent the board as it is then).
final class PageHub: Sendable {
    private struct Pages {
        var relay: BoardRelay
        var streams: [BoardRelay.PageID: AsyncStream<WSMessage>.Continuation] = [:]
        var nextID = 1
    }

    /// Messages held for a page not yet sent: a burst of a hundred refused presses fits.
    static let pageBacklog = 256

    private let pages: Mutex<Pages>
    private let toBoard: @Sendable (String) -> Void

    init(playing: Bool, toBoard: @escaping @Sendable (String) -> Void) {
        pages = Mutex(Pages(relay: BoardRelay(playing: playing)))
        self.toBoard = toBoard
    }

    var pageCount: Int { pages.withLock { $0.streams.count } }
    var playing: Bool { pages.withLock { $0.relay.playing } }

    /// A new page: its identity and the stream of what it is sent, beginning with the board as
    /// it is now.
    func join() -> (BoardRelay.PageID, AsyncStream<WSMessage>) {
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingOldest(Self.pageBacklog))
        let id = pages.withLock { pages in
            let id = pages.nextID
            pages.nextID += 1
            pages.streams[id] = continuation
            deliver(pages.relay.pageJoined(id), in: &pages)
            return id
        }
        return (id, stream)
    }

    func leave(_ page: BoardRelay.PageID) {
        let continuation = pages.withLock { pages in
            pages.relay.pageLeft(page)
            return pages.streams.removeValue(forKey: page)
        }
        continuation?.finish()
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
            case .everyPage(let text): for id in pages.streams.keys { send(text, to: id, in: &pages) }
            case .board(let line): toBoard(line)
            }
        }
    }

    private func send(_ text: String, to id: BoardRelay.PageID, in pages: inout Pages) {
        guard let stream = pages.streams[id], case .dropped = stream.yield(.text(text)) else { return }
        pages.streams[id] = nil
        stream.finish()
    }
}
