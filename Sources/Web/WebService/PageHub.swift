import BoardProtocol
import WebRules

/// Where the pages meet the board: the ``BoardRelay``, and for each page the frames it has been
/// sent that its WebSocket has not yet taken (``take(from:)``).
///
/// Confined to the web server's loop, as is everything it is told and asks: no lock. Every page
/// gets the relay's messages in the relay's order: a page that joins as the board changes gets
/// the board as it was, then the change, never the other way round.
///
/// Bounded in bytes: a page holds at most ``pageBacklog`` frames and ``pageBacklogBytes`` bytes
/// of payload it has not taken. A page that falls further behind is ended rather than sent a
/// board with gaps in it: it is sent nothing more, and its connection closes once it has what
/// it was sent (its browser connects again and is sent the board as it is then). So all pages
/// together hold at most the server's connections times ``pageBacklogBytes``, whatever they ask
/// and however slowly they read, and the boards lists below.
///
/// A page that shows the boards view (``watchBoards(_:_:latest:)``) is sent every list the web
/// view reads, but holds at most one it has not taken, the latest, beside its backlog: a list is
/// the whole of what the view shows, so one that waits is replaced, never queued. A list is at
/// most ``BoardsList/largestFile`` bytes, and pages sent the same list share one copy of it; so a
/// page holds at most its backlog, one list waiting here and one its connection is sending.
final class PageHub {
    private struct Outbox {
        var frames: [PageFrame] = []
        /// Bytes of payload in `frames`.
        var waiting = 0
        /// The latest boards list the page has not taken, sent after its frames.
        var boards: PageFrame?
        /// Sent nothing more: it fell behind, closed, or its client has said all it will.
        var ended = false
    }

    /// Frames held for a page not yet taken: a burst of a hundred refused presses fits.
    static let pageBacklog = 256
    /// Bytes held for a page not yet taken: three full histories (about 70 KB each) and the
    /// states between them.
    static let pageBacklogBytes = 256 * 1024
    /// A page asks for the history only with less than this waiting for it.
    static let historyRoom = 16 * 1024

    private var relay: BoardRelay
    private var pages: [BoardRelay.PageID: Outbox] = [:]
    private var nextID = 1
    /// The pages showing the boards view.
    private var boardsWatchers: Set<BoardRelay.PageID> = []
    private let toBoard: (String) -> Void

    /// - Parameter toBoard: queues a line for the board (``BoardLink/send(_:)``).
    init(playing: Bool, toBoard: @escaping (String) -> Void) {
        relay = BoardRelay(playing: playing)
        self.toBoard = toBoard
    }

    /// Pages being sent the board.
    var pageCount: Int { relay.pages.count }
    var playing: Bool { relay.playing }

    /// A new page, first sent the board as it is now.
    func join() -> BoardRelay.PageID {
        let id = nextID
        nextID += 1
        pages[id] = Outbox()
        deliver(relay.pageJoined(id))
        return id
    }

    /// Whether a page shows the boards view: the web view looks at the list only then.
    var isWatchingBoards: Bool { !boardsWatchers.isEmpty }

    /// The page shows the boards view (`true`, sent `latest` at once), or no longer.
    func watchBoards(_ page: BoardRelay.PageID, _ watch: Bool, latest: String) {
        guard watch else {
            boardsWatchers.remove(page)
            pages[page]?.boards = nil
            return
        }
        guard pages[page]?.ended == false, boardsWatchers.insert(page).inserted else { return }
        pages[page]?.boards = PageFrame(opcode: .text, payload: Array(latest.utf8))
    }

    /// A new boards list, or why there is none: for every page that shows the view.
    func boardsListed(_ text: String) {
        let frame = PageFrame(opcode: .text, payload: Array(text.utf8))
        for page in boardsWatchers { pages[page]?.boards = frame }
    }

    /// The page's connection has ended: it and what waits for it are forgotten.
    func leave(_ page: BoardRelay.PageID) {
        end(page)
        pages[page] = nil
    }

    /// The page is sent nothing more; what waits for it is still taken.
    func end(_ page: BoardRelay.PageID) {
        guard pages[page]?.ended == false else { return }
        pages[page]?.ended = true
        // Nothing goes after what it was sent (a close frame, for one that closed).
        pages[page]?.boards = nil
        boardsWatchers.remove(page)
        relay.pageLeft(page)
    }

    /// The next frame for the page, no longer held here.
    func take(from page: BoardRelay.PageID) -> PageFrame? {
        guard pages[page]?.frames.isEmpty == false else {
            defer { pages[page]?.boards = nil }
            return pages[page]?.boards
        }
        guard let frame = pages[page]?.frames.removeFirst() else { return nil }
        pages[page]?.waiting -= frame.payload.count
        return frame
    }

    /// Frames waiting for the page (for its connection, which reads no more of the page's
    /// messages while many answers wait: a burst read at once must not end a page that reads).
    func backlog(of page: BoardRelay.PageID) -> Int { pages[page]?.frames.count ?? 0 }

    /// Whether the board still owes the page answers to its commands.
    func isAwaitingBoard(_ page: BoardRelay.PageID) -> Bool { relay.isWaiting(for: page) }

    /// The page has said all it will and has its answers: a close frame (normal closure), the
    /// last it is sent.
    func finish(_ page: BoardRelay.PageID) {
        queue(PageFrame(opcode: .close, payload: [0x03, 0xE8]), for: page)
        end(page)
    }

    /// Whether the page is ended and has taken everything: its connection may close.
    func isFinished(_ page: BoardRelay.PageID) -> Bool {
        guard let outbox = pages[page] else { return true }
        return outbox.ended && outbox.frames.isEmpty && outbox.boards == nil
    }

    /// Bytes of payload held for a page still sent the board (for tests); nil once it is ended.
    func waiting(for page: BoardRelay.PageID) -> Int? {
        guard let outbox = pages[page], !outbox.ended else { return nil }
        return outbox.waiting
    }

    func page(_ page: BoardRelay.PageID, asked request: APIRequest) {
        // The one large answer, only for a page that has taken most of what it was sent: one
        // that does not read cannot make the web view carry histories it will not take.
        if case .history = request, let waiting = waiting(for: page), waiting >= Self.historyRoom {
            deliver([.page(page, BoardRelay.busy(request.command))])
            return
        }
        deliver(relay.page(page, asked: request))
    }

    /// Sends one page a message of the web view's own (a pong, an error).
    func send(_ text: String, to page: BoardRelay.PageID) {
        deliver([.page(page, text)])
    }

    /// Sends one page a frame of the protocol's own (a pong frame).
    func send(_ frame: PageFrame, to page: BoardRelay.PageID) {
        queue(frame, for: page)
    }

    /// Answers a page's close frame with one of its own, the last it is sent.
    func close(_ page: BoardRelay.PageID, answering frame: PageFrame) {
        let code = frame.payload.count >= 2 ? Array(frame.payload.prefix(2)) : []
        queue(PageFrame(opcode: .close, payload: code), for: page)
        end(page)
    }

    func boardConnected() { deliver(relay.boardConnected()) }
    func boardSent(_ line: String) { deliver(relay.boardSent(line)) }
    func boardLost(_ reason: ErrorReason, _ text: String) { deliver(relay.boardLost(reason, text)) }

    private func deliver(_ deliveries: [BoardRelay.Delivery]) {
        for delivery in deliveries {
            switch delivery {
            case .page(let id, let text): queue(PageFrame(opcode: .text, payload: Array(text.utf8)), for: id)
            case .everyPage(let text):
                let frame = PageFrame(opcode: .text, payload: Array(text.utf8))
                for id in relay.pages { queue(frame, for: id) }
            case .board(let line): toBoard(line)
            }
        }
    }

    private func queue(_ frame: PageFrame, for id: BoardRelay.PageID) {
        // Changed in place: a copy of the outbox would copy its frames.
        guard pages[id]?.ended == false, let count = pages[id]?.frames.count, let waiting = pages[id]?.waiting else { return }
        if count < Self.pageBacklog && waiting + frame.payload.count <= Self.pageBacklogBytes {
            pages[id]?.frames.append(frame)
            pages[id]?.waiting += frame.payload.count
        } else {
            end(id)
        }
    }
}
