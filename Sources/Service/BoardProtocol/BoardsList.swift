import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every board on the broker, as the network link sees them: what the page's boards view shows
/// (docs/NETWORK.md, "Every board at once").
///
/// ```
/// {"type":"boards","broker":"broker.home:8883","connected":true,"boards":[
///   {"name":"kitchen","online":true,"cells":["X","","O","","X","","","",""],"turn":"O",
///    "outcome":"playing","opponent":"two-players","score":{"xWins":2,"oWins":1,"draws":0}}],
///  "lost":0,"ignored":0,"beyondLimit":0}
/// ```
///
/// The link writes it to a file (``defaultPath``), replaced whole at most every
/// ``interval`` while it changes, and removed when the link stops; the web view reads that file
/// only while a page shows the view, checks it (``read(_:)``) and sends it on as it is, this
/// very message. Boards by name; a board whose state has not been heard has no `cells`.
public struct BoardsList: Codable, Sendable, Hashable {
    public struct Board: Codable, Sendable, Hashable {
        public var name: String
        /// `true` online, `false` offline, absent: its presence not heard.
        public var online: Bool?
        /// Nine marks in reading order ("X", "O" or ""); absent until its state is heard.
        public var cells: [String]?
        public var turn: String?
        /// "playing", "x-wins", "o-wins" or "draw", with `cells`.
        public var outcome: String?
        /// Who plays O there, with `cells` (``BoardsList/isOpponentName(_:)``).
        public var opponent: String?
        /// The score of that pairing, when the board sent one.
        public var score: ViewState.Tally?

        public init(name: String, online: Bool?) {
            self.name = name
            self.online = online
        }
    }

    public var type = "boards"
    /// The broker, as the link's configuration names it.
    public var broker: String
    /// Whether the link is connected to it: when not, `boards` is empty until it is back.
    public var connected: Bool
    public var boards: [Board]
    /// Messages the link dropped for want of room: the list may be out of date until each board's
    /// next message.
    public var lost = 0
    /// Messages that were not a board's state or presence.
    public var ignored = 0
    /// Messages about boards beyond ``most``.
    public var beyondLimit = 0

    public init(broker: String, connected: Bool, boards: [Board]) {
        self.broker = broker
        self.connected = connected
        self.boards = boards
    }

    /// The most boards a list holds: as many as `tictactoe boards` keeps.
    public static let most = 1024
    /// The largest file the web view reads: the most boards, each at its longest, fit in it.
    public static let largestFile = 384 * 1024
    /// The longest broker address a list names: a host name at its longest, and a port.
    public static let longestBroker = 261
    /// How often at most the link replaces the file while the list changes.
    public static let interval: Duration = .milliseconds(250)
    /// Where the link writes it and the web view reads it, unless told otherwise
    /// (`--boards-file`): the link's runtime folder, which systemd makes and removes with it.
    public static let defaultPath = "/run/tictactoe-network/boards.json"

    /// The list `bytes` hold, or why not: the file is the link's, but the web view passes on
    /// nothing it has not checked.
    public static func read(_ bytes: [UInt8]) throws(Unreadable) -> BoardsList {
        guard bytes.count <= largestFile else { throw Unreadable(reason: "it is larger than \(largestFile) bytes") }
        guard let list = try? JSONDecoder().decode(BoardsList.self, from: Data(bytes)) else { throw Unreadable(reason: "it is not a list of boards") }
        if let problem = list.problem { throw Unreadable(reason: problem) }
        return list
    }

    /// Why a file is not a list: in words, without a final period.
    public struct Unreadable: Error, Sendable, Hashable {
        public var reason: String
    }

    /// What is wrong with the list, or `nil`.
    public var problem: String? {
        guard type == "boards" else { return "its type is not \"boards\"" }
        guard Self.isBrokerAddress(broker) else { return "its broker is not a host and port of at most \(Self.longestBroker) characters" }
        guard boards.count <= Self.most else { return "it holds more than \(Self.most) boards" }
        guard lost >= 0, ignored >= 0, beyondLimit >= 0 else { return "a count is negative" }
        for board in boards {
            guard BoardName.isValid(board.name) else { return "a board's name is not one: \(BoardName.form)" }
            guard let cells = board.cells else {
                guard board.turn == nil, board.outcome == nil, board.opponent == nil, board.score == nil else { return "\(board.name) has a state without marks" }
                continue
            }
            guard let outcome = board.outcome, let opponent = board.opponent, Self.isPosition(cells: cells, turn: board.turn, outcome: outcome),
                  Self.isOpponentName(opponent), board.score.map(Self.isTally) ?? true
            else { return "\(board.name)'s state is not one a board could be in" }
        }
        guard Set(boards.map(\.name)).count == boards.count else { return "a board is listed twice" }
        return nil
    }

    /// Whether the marks, turn and outcome have a game's form: nine marks of "X", "O" or "", as
    /// many X as O or one more either way, one of the four outcomes, and a turn ("X" or "O")
    /// exactly while playing. (Not whether a game could reach them: the list shows what each board
    /// says of itself, and checks only what could harm a reader.)
    public static func isPosition(cells: [String], turn: String?, outcome: String) -> Bool {
        let marks: Set = ["X", "O", ""]
        let outcomes: Set = ["playing", "x-wins", "o-wins", "draw"]
        let xs = cells.count { $0 == "X" }, os = cells.count { $0 == "O" }
        return cells.count == 9 && cells.allSatisfy(marks.contains) && outcomes.contains(outcome) && (outcome == "playing") == (turn != nil)
            && (turn.map { $0 == "X" || $0 == "O" } ?? true) && abs(xs - os) <= 1
    }

    /// Whether `name` has the form of an opponent's name: a board's own ("learner",
    /// "computer-2"), or another board's, "board:" and its name, ":x" after it when it plays X.
    public static func isOpponentName(_ name: String) -> Bool {
        guard name.hasPrefix("board:") else { return BoardName.isValid(name) }
        let rest = name.dropFirst("board:".count)
        return BoardName.isValid(String(rest.hasSuffix(":x") ? rest.dropLast(2) : rest))
    }

    /// Whether `address` has the form of a broker's address as the link names it: a host name or
    /// address (IPv6 in brackets) and a port, in ASCII letters, digits and `.-:[]_%`.
    public static func isBrokerAddress(_ address: String) -> Bool {
        let allowed: (Unicode.Scalar) -> Bool = {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || ".-:[]_%".unicodeScalars.contains($0)
        }
        return !address.isEmpty && address.unicodeScalars.count <= longestBroker && address.unicodeScalars.allSatisfy(allowed)
    }

    public static func isTally(_ tally: ViewState.Tally) -> Bool {
        tally.xWins >= 0 && tally.oWins >= 0 && tally.draws >= 0
    }
}
