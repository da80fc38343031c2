import BoardProtocol

/// The web view's one connection to the board, shared by every page: what each page is sent,
/// and which page each of the board's replies answers. Pure: the caller does the I/O the
/// returned ``Delivery`` values describe.
///
/// - Every page, on joining, gets the web view's own `web` message (whether it may play,
///   whether the board is reachable), then the board's latest `hello` and `state`: it draws the
///   board at once, without waiting for a change.
/// - The board's `hello` and `state` messages go to every page, as the board sent them (the
///   page reads them as any client of docs/API.md does); its replies (`ok`, `error`, `status`,
///   `history`) go to the page whose command they answer. The board answers a connection's
///   commands one at a time, in order, so a queue of the asking pages pairs them.
/// - Bounded, and fair: at most ``waitingLimit`` commands wait for the board's answers, and at
///   most ``waitingPerPage`` of one page's, so the lines queued for the board never pass
///   ``waitingLimit`` times a page message's greatest length, and one page asking as fast as it
///   may cannot keep another page's commands out. A page has at most one `history` (the one
///   large answer) on its way at a time. A command over any of these bounds is answered at once
///   with an `error`, and never reaches the board.
/// - When the board goes away every page is told (`web` with `reachable: false`) and every
///   command still waiting gets an `error`; commands sent meanwhile get one at once. When it
///   returns, its new `hello` and `state` reach every page.
///
/// Not thread-safe: the caller holds it behind one lock.
public struct BoardRelay: Sendable {
    public typealias PageID = Int

    /// Something to send.
    public enum Delivery: Sendable, Hashable {
        /// A message to one page.
        case page(PageID, String)
        /// A message to every page.
        case everyPage(String)
        /// A line to the board (without its newline).
        case board(String)
    }

    /// The web view's own message, beside the board's (docs/WEB.md).
    public struct WebMessage: Codable, Sendable, Hashable {
        public var type = "web"
        /// Whether pages may change the game (`web.allow`).
        public var play: Bool
        public var reachable: Bool
        /// Why the board cannot be reached, while it cannot: an ``ErrorReason``'s name, for a
        /// page to say in its own words, and a sentence for the terminal.
        public var reason: String?
        public var text: String?
    }

    public let playing: Bool
    public private(set) var pages: Set<PageID> = []
    public private(set) var reachable = false
    private var why = (reason: ErrorReason.connecting, text: "connecting to the board")
    private var hello: String?
    private var state: String?
    /// The pages whose commands the board has not answered yet, oldest first.
    private var waiting: [(page: PageID, history: Bool)] = []

    /// Commands of all pages waiting for the board's answers: with the board's own bound on what
    /// it holds for a client, far more than 64 pages pressing at once need.
    public static let waitingLimit = 64
    /// Commands of one page waiting: a page sends at most 10 a second, and the board answers
    /// most in a millisecond.
    public static let waitingPerPage = 8

    public init(playing: Bool) {
        self.playing = playing
    }

    public mutating func pageJoined(_ page: PageID) -> [Delivery] {
        pages.insert(page)
        var deliveries: [Delivery] = [.page(page, webMessage)]
        if reachable {
            if let hello { deliveries.append(.page(page, hello)) }
            if let state { deliveries.append(.page(page, state)) }
        }
        return deliveries
    }

    /// Whether commands of `page` wait for the board's answers.
    public func isWaiting(for page: PageID) -> Bool { waiting.contains { $0.page == page } }

    public mutating func pageLeft(_ page: PageID) {
        pages.remove(page)
        // Its replies still come, in order: they are dropped when they do.
    }

    /// A page's request, already parsed and allowed. A page that has left (or was closed for
    /// falling behind) asks nothing more: its request goes nowhere.
    public mutating func page(_ page: PageID, asked request: APIRequest) -> [Delivery] {
        guard pages.contains(page) else { return [] }
        guard reachable else {
            return [.page(page, Self.error(request.command, .boardUnreachable, "the board cannot be reached: \(why.text)"))]
        }
        let asksHistory = if case .history = request { true } else { false }
        guard waiting.count < Self.waitingLimit, waiting.count(where: { $0.page == page }) < Self.waitingPerPage,
            !asksHistory || !waiting.contains(where: { $0.page == page && $0.history })
        else {
            return [.page(page, Self.busy(request.command))]
        }
        waiting.append((page, asksHistory))
        return [.board(request.line)]
    }

    /// The board answered: every page is told, and the board's `hello` and `state` follow.
    public mutating func boardConnected() -> [Delivery] {
        reachable = true
        waiting.removeAll()
        return [.everyPage(webMessage)]
    }

    /// A line the board sent (without its newline).
    public mutating func boardSent(_ line: String) -> [Delivery] {
        guard let type = TopLevelType.of(line.utf8) else { return [] }
        let kind = APIMessage.Kind(rawValue: type)
        switch kind {
        case .hello:
            hello = line
            return [.everyPage(line)]
        case .state:
            state = line
            return [.everyPage(line)]
        case .ok, .error, .status, .history:
            guard !waiting.isEmpty else { return [] }
            let page = waiting.removeFirst().page
            return pages.contains(page) ? [.page(page, line)] : []
        case .bye:
            // The connection ends next; boardLost says so to the pages.
            return []
        default:
            // A type a later board sends: the pages, which skip what they do not know, decide.
            return [.everyPage(line)]
        }
    }

    /// The board went away, or could not be reached (again): `reason` and `text` say why.
    /// Pages are told when that is news, not at every attempt to reconnect.
    public mutating func boardLost(_ reason: ErrorReason, _ text: String) -> [Delivery] {
        let news = reachable || reason != why.reason || text != why.text
        reachable = false
        why = (reason, text)
        var deliveries: [Delivery] = waiting.map(\.page).filter(pages.contains).map {
            .page($0, Self.error(nil, .boardWentAway, "the board went away before it answered"))
        }
        waiting.removeAll()
        if news { deliveries.append(.everyPage(webMessage)) }
        return deliveries
    }

    private var webMessage: String {
        Self.encode(WebMessage(play: playing, reachable: reachable, reason: reachable ? nil : why.reason.rawValue, text: reachable ? nil : why.text))
    }

    /// The answer to a command that may not wait for the board now.
    public static func busy(_ command: String?) -> String {
        error(command, .busy, "the board is busy answering other requests: try again in a moment")
    }

    static func error(_ command: String?, _ reason: ErrorReason, _ text: String) -> String {
        encode(APIMessage.error(command, reason, text))
    }

    /// A message as one line of JSON, keys sorted as the board's are.
    public static func encode(_ message: some Encodable) -> String { JSONLine.encode(message) ?? "{}" }

}
