import Basics
import BoardProtocol
import ConfigurationFile
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every board on a broker at once, as `tictactoe boards` lists them: folded from the boards'
/// retained `tictactoe/<board>/state` and `presence` messages (and each change after them).
///
/// ## Contract
/// - **Untrusted input.** Anyone who may publish on the broker can reach it, so a message is
///   taken only when its topic names a valid board name (``BoardName``) and its payload is what
///   the link publishes there: a state line whose cells, turn, outcome and opponent are the
///   API's own values, or "online" / "offline". Anything else is counted in ``ignored`` and
///   changes nothing; an empty payload (a retained message cleared) forgets the board's part.
///   Nothing from the broker reaches the text as it came: names and values are checked first,
///   so no escape sequence reaches a terminal.
/// - **Bounded.** At most ``largest`` boards are kept; a message about a further board is
///   counted in ``beyondLimit``. Each message is at most what the client takes (8 KiB).
/// - Pure: no I/O, no clock.
public struct BoardsDirectory: Sendable {
    /// What is known of one board.
    public struct Entry: Sendable, Hashable {
        /// Its presence: `true` online, `false` offline, `nil` not heard.
        public var online: Bool?
        /// Its latest state, `nil` until one is heard.
        public var state: Summary?
    }

    /// The part of a board's state the list shows, every field checked.
    public struct Summary: Sendable, Hashable {
        /// Nine marks in reading order: "X", "O" or "".
        public var cells: [String]
        public var turn: String?
        /// "playing", "x-wins", "o-wins" or "draw".
        public var outcome: String
        /// The opponent's name: "two-players", "computer-1" … "computer-4", "learner", another
        /// board ("board:kitchen", "board:kitchen:x"), or another name of the same form from a
        /// newer board.
        public var opponent: String
        /// The score of the pairing being played, if the board sent one.
        public var score: ViewState.Tally?
        /// The board shows a choice of opponent that may not stay (the gesture steps on).
        public var choosing = false
    }

    public static let largest = BoardsList.most

    /// What a client subscribes to for the list: every board's state and presence.
    public static let subscriptions = [BoardTopics(board: "+").state, BoardTopics(board: "+").presence]

    public private(set) var entries: [String: Entry] = [:]
    /// Messages refused: a topic that is not a board's state or presence, or a payload that is
    /// not what the link publishes there.
    public private(set) var ignored = 0
    /// Messages about boards beyond ``largest``.
    public private(set) var beyondLimit = 0
    /// Messages the client dropped for want of room (a burst larger than its inbox): the list
    /// may be out of date until each board's next message.
    public private(set) var lost = 0

    public init() {}

    /// Takes one message from the broker; whether the list changed.
    public mutating func take(topic: String, payload: [UInt8]) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3, levels[0] == BoardTopics.root, BoardName.isValid(String(levels[1])) else {
            ignored += 1
            return false
        }
        let name = String(levels[1])
        guard entries[name] != nil || entries.count < Self.largest || payload.isEmpty else {
            beyondLimit += 1
            return false
        }
        var entry = entries[name] ?? Entry()
        let topics = BoardTopics(board: name)
        switch topic {
        case topics.presence:
            switch String(decoding: payload, as: UTF8.self) {
            case BoardTopics.online: entry.online = true
            case BoardTopics.offline: entry.online = false
            case "": entry.online = nil
            default: return refuse()
            }
        case topics.state:
            if payload.isEmpty {
                entry.state = nil
            } else {
                guard let summary = Self.summary(payload) else { return refuse() }
                entry.state = summary
            }
        default:
            return refuse()
        }
        let before = entries[name]
        entries[name] = entry.online == nil && entry.state == nil ? nil : entry
        return entries[name] != before
    }

    /// The client dropped `count` messages: said in the heading.
    public mutating func lose(_ count: Int) {
        lost += count
    }

    private mutating func refuse() -> Bool {
        ignored += 1
        return false
    }

    /// The state line's summary, or `nil` when it is not one the API would send.
    static func summary(_ payload: [UInt8]) -> Summary? {
        guard let line = try? JSONDecoder().decode(APIMessage.self, from: Data(payload)), line.type == .state, let state = line.state else { return nil }
        guard BoardsList.isPosition(cells: state.cells, turn: state.turn, outcome: state.outcome), BoardsList.isOpponentName(state.opponent) else { return nil }
        let score = state.scores[state.opponent].flatMap { BoardsList.isTally($0) ? $0 : nil }
        return Summary(
            cells: state.cells, turn: state.turn, outcome: state.outcome, opponent: state.opponent, score: score,
            choosing: state.headline == ViewState.choosingOpponent)
    }

    /// The list as the page's boards view shows it, by name.
    public func list(broker: String, connected: Bool) -> BoardsList {
        var list = BoardsList(broker: broker, connected: connected, boards: entries.keys.sorted().map { name in
            let entry = entries[name] ?? Entry()
            var board = BoardsList.Board(name: name, online: entry.online)
            if let state = entry.state {
                (board.cells, board.turn, board.outcome, board.opponent, board.score) = (state.cells, state.turn, state.outcome, state.opponent, state.score)
            }
            return board
        })
        (list.lost, list.ignored, list.beyondLimit) = (lost, ignored, beyondLimit)
        return list
    }
}
