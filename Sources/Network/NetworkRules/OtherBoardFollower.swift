import Basics
import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the link follows of the board its own board plays (docs/NETWORK.md, "Two boards, one
/// game"): that board's retained state and presence on the broker, made into the `heard`
/// reports its own board takes (``HeardReport``). Pure.
///
/// - **Whom.** The board named by its own board's state (`otherBoard.board`), from the state that
///   names it; a new one is subscribed to, the last one unsubscribed from.
/// - **What it says.** Online while its presence is `online` (the broker sets it `offline` as its
///   link's will, and its link does when its board goes away); its game against this board, from
///   its state's own `otherBoard`, only when that names this board and is at a game of the
///   pairing: the mark it plays is the other of the two (its state names the mark this board
///   plays), with the moves of the game before it when the state says them. A state that is not JSON, not a state, over ``largestState``, playing another board
///   or this one with the mark this board expects for itself, is no game: the board waits for
///   it. The two boards told to play the same mark, or a board told to play itself, are said
///   in the link's log (``takeTrouble()``).
/// - **When.** A report goes to the board each time it differs from the last one sent; again
///   after the board comes back (it restarts not knowing); offline when the broker is lost.
///
/// Not thread-safe: the relay keeps it on its thread.
public struct OtherBoardFollower: Sendable {
    /// This board's name: the other board's state must name it.
    public let me: String
    /// The board followed, when its own board plays one.
    public private(set) var other: String?
    private var online = false
    private var game: HeardReport.Game?
    private var lastSent: HeardReport?
    /// The mark the own board says the followed board plays.
    private var expectedMark: String?
    /// Why the two boards cannot play, when they cannot (the same mark each, a board naming
    /// itself), and the last reason said.
    private var trouble: String?
    private var troubleSaid: String?

    /// The largest state read: the link's inbox takes no larger message.
    public static let largestState = 8192

    public init(me: String) {
        self.me = me
    }

    /// The topics to read of `board`: its state and its presence, both retained.
    public static func topics(of board: String) -> [String] {
        let topics = BoardTopics(board: board)
        return [topics.state, topics.presence]
    }

    /// What changes when the own board shows `state`: the subscriptions (to make and to end) and
    /// a report for it, when there is news.
    public mutating func boardShows(_ state: ViewState) -> (subscribe: [String], unsubscribe: [String], report: HeardReport?) {
        let followed = state.otherBoard?.board
        expectedMark = state.otherBoard?.mark
        if followed == me { trouble = "this board is told to play itself (board:\(me)): choose another board's name" }
        var subscribe: [String] = [], unsubscribe: [String] = []
        if followed != other {
            unsubscribe = other.map(Self.topics) ?? []
            subscribe = followed.map(Self.topics) ?? []
            (other, online, game, lastSent) = (followed, false, nil, nil)
            if followed != me { trouble = nil }
        }
        return (subscribe, unsubscribe, news())
    }

    /// The own board came back (or was first reached): the next report goes to it whatever the
    /// last one was.
    public mutating func boardReconnected() {
        lastSent = nil
    }

    /// The broker is gone: nothing more is heard of the other board, which is away for now.
    public mutating func brokerLost() -> HeardReport? {
        online = false
        return news()
    }

    /// Whether `topic` is one the follower reads.
    public func reads(_ topic: String) -> Bool {
        other.map { Self.topics(of: $0).contains(topic) } ?? false
    }

    /// A message on one of the followed board's topics: a report when it is news.
    public mutating func heard(topic: String, payload: [UInt8]) -> HeardReport? {
        guard let other else { return nil }
        let topics = BoardTopics(board: other)
        if topic == topics.presence {
            online = payload.elementsEqual(BoardTopics.online.utf8)
        } else if topic == topics.state {
            game = payload.count <= Self.largestState ? gameAgainstMe(in: payload) : nil
        }
        return news()
    }

    /// The game the other board's `payload` (its state line, or a state message) says it plays
    /// against this board, if it does.
    private mutating func gameAgainstMe(in payload: [UInt8]) -> HeardReport.Game? {
        let data = Data(payload)
        let state = (try? JSONDecoder().decode(ViewState.self, from: data)) ?? (try? JSONDecoder().decode(APIMessage.self, from: data))?.state
        guard let against = state?.otherBoard, against.board == me else { return nil }
        let mark = against.mark == "X" ? "O" : against.mark == "O" ? "X" : ""
        if let expectedMark, let other, mark != expectedMark {
            trouble = "the board \(other) plays this board with the same mark, \(mark): one board invites (board:NAME, playing X), the other joins (board:NAME:x)"
            return nil
        }
        if other != me { trouble = nil }
        guard against.game > 0 else { return nil }
        let game = HeardReport.Game(mark: mark, number: against.game, moves: against.moves, previous: against.previous)
        // Checked as the board will check it: nothing the board would refuse is sent.
        return HeardReport(board: me, online: true, game: game).problem == nil ? game : nil
    }

    /// Why the two boards cannot play, once each time it changes: for the link's log.
    public mutating func takeTrouble() -> String? {
        guard trouble != troubleSaid else { return nil }
        troubleSaid = trouble
        return trouble
    }

    /// The report now, whatever was sent before: what a held report becomes when it may go.
    public mutating func current() -> HeardReport? {
        lastSent = nil
        return news()
    }

    /// The report now, when it differs from the last one sent.
    private mutating func news() -> HeardReport? {
        guard let other else { return nil }
        let report = HeardReport(board: other, online: online, game: online ? game : nil)
        guard report != lastSent else { return nil }
        lastSent = report
        return report
    }
}
