import BoardProtocol

/// The other boards a link sees online on the broker, as the `seen` list its own board offers as
/// opponents (docs/NETWORK.md, "Two boards, one game"). Pure.
///
/// - **What.** Every board whose retained presence is `online`, but this one, folded by a
///   ``BoardsDirectory`` (so checked as `tictactoe boards` checks it, and at most
///   ``BoardsDirectory/largest`` boards kept); each invites this board when its state's opponent
///   is this board playing O (`board:<me>`), once that choice has settled (not while the board
///   shows it: the opponent gesture passing this board on its way is no invitation). The ones that invite first, then by name, at most
///   ``SeenReport/most``.
/// - **When.** A list goes to the board each time it differs from the last one sent; again after
///   the board comes back; an empty one when the broker is lost (the boards are not seen then).
public struct BoardsInView: Sendable {
    /// This board's name: left out of the list, and the name an invitation names.
    public let me: String
    /// Every board heard, this one too: the page's boards view (``BoardsDirectory/list(broker:connected:)``).
    public private(set) var directory = BoardsDirectory()
    /// How many times ``directory`` has changed: a list written at one count is current while it stays.
    public private(set) var changes = 0
    private var lastSent: SeenReport?

    public init(me: String) {
        self.me = me
    }

    /// What a link subscribes to, with the retained messages: every board's state and presence.
    public static let subscriptions = BoardsDirectory.subscriptions

    /// Whether `topic` is one it reads: a board's state or presence.
    public static func reads(_ topic: String) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        return levels.count == 3 && levels[0] == BoardTopics.root && (levels[2] == "state" || levels[2] == "presence")
    }

    /// A message on a board's state or presence: the list when it is news.
    public mutating func take(topic: String, payload: [UInt8]) -> SeenReport? {
        let counted = (directory.ignored, directory.beyondLimit)
        // A message refused or beyond the limit changes the list's counts, which the view says.
        if directory.take(topic: topic, payload: payload) || counted != (directory.ignored, directory.beyondLimit) { changes += 1 }
        return news()
    }

    /// The broker is gone: no board is seen until it is back (and sends its retained messages
    /// again).
    public mutating func brokerLost() -> SeenReport? {
        directory = BoardsDirectory()
        changes += 1
        return news()
    }

    /// The client dropped `count` messages: the boards view says its list may be out of date.
    public mutating func lose(_ count: Int) {
        directory.lose(count)
        changes += 1
    }

    /// The own board came back (or was first reached): the next list goes to it whatever the last
    /// one was.
    public mutating func boardReconnected() {
        lastSent = nil
    }

    /// The list now, whatever was sent before: what a held list becomes when it may go.
    public mutating func current() -> SeenReport? {
        lastSent = nil
        return news()
    }

    /// The list now.
    public var seen: SeenReport {
        let invitation = "board:" + me
        let boards = directory.entries.compactMap { name, entry -> SeenReport.Board? in
            guard name != me, entry.online == true else { return nil }
            let invites = entry.state.map { $0.opponent == invitation && !$0.choosing } ?? false
            return SeenReport.Board(board: name, invites: invites)
        }
        let ordered = boards.sorted { ($0.invites ? 0 : 1, $0.board) < ($1.invites ? 0 : 1, $1.board) }
        return SeenReport(boards: Array(ordered.prefix(SeenReport.most)))
    }

    private mutating func news() -> SeenReport? {
        let now = seen
        guard now != lastSent else { return nil }
        lastSent = now
        return now
    }
}
