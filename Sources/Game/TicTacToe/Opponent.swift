import Basics

/// Who the board plays: a second person at the board, the computer at one of its levels or the
/// matchbox learner (Michie's MENACE, which learns from every game it plays), each playing O;
/// or another board over the network, playing either mark. Chosen on the board (holding new
/// game and tapping a cell steps through them, other boards only as the network sees them
/// online), and kept with the game.
public enum Opponent: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case person
    case computer(ComputerLevel)
    case learner
    /// Another board, over the network: its buttons play ``RemoteBoard/side``, this board's the
    /// other mark. Chosen by name (``init(name:)``), or by the gesture once the network says the
    /// board is online.
    case board(RemoteBoard)

    /// Two players, the computer from level 1 to 4, then the learner: the order the board steps
    /// through.
    public static let allCases: [Opponent] = [.person] + ComputerLevel.allCases.map { .computer($0) } + [.learner]

    /// The computer's level, if the computer plays.
    public var level: ComputerLevel? {
        if case .computer(let level) = self { level } else { nil }
    }

    /// Whether the board plays O itself (the computer at a level, or the learner): then O's
    /// moves are the board's, and a person's press in O's turn is refused.
    public var isMachine: Bool {
        switch self {
        case .computer, .learner: true
        case .person, .board: false
        }
    }

    /// The other board, if one plays.
    public var remote: RemoteBoard? {
        if case .board(let remote) = self { remote } else { nil }
    }

    /// The name used in configuration files, on the command line and in saved games:
    /// "two-players", "computer-1" … "computer-4", "learner", and for another board
    /// "board:kitchen" (it plays O) or "board:kitchen:x" (it plays X).
    public var name: String {
        switch self {
        case .person: "two-players"
        case .computer(let level): "computer-\(level.rawValue)"
        case .learner: "learner"
        case .board(let remote): RemoteBoard.prefix + remote.name + (remote.side == .x ? ":x" : "")
        }
    }

    /// The opponent called `name`, or `nil`.
    public init?(name: String) {
        if name.hasPrefix(RemoteBoard.prefix) {
            var rest = Substring(name).dropFirst(RemoteBoard.prefix.count)
            let side: Player = rest.hasSuffix(":x") ? .x : .o
            if side == .x { rest = rest.dropLast(2) }
            guard let remote = RemoteBoard(name: String(rest), side: side) else { return nil }
            self = .board(remote)
            return
        }
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// How a name may be written, for messages: every name in ``allCases``, and another board's.
    public static let nameForms = allCases.map(\.name).joined(separator: ", ") + ", board:NAME (another board, playing O) or board:NAME:x (playing X)"

    public var description: String {
        switch self {
        case .person: "two players"
        case .computer(let level): "the computer at \(level)"
        case .learner: "the matchbox learner"
        case .board(let remote): "the board \(remote.name) (\(remote.side))"
        }
    }
}

/// Another board, the opponent in a game played across the network: its name (``BoardName``)
/// and the mark its buttons play. The board that invites plays X, the one invited O, and both
/// show the same game.
public struct RemoteBoard: Sendable, Hashable {
    public let name: String
    public let side: Player

    /// `nil` when `name` is no board's name.
    public init?(name: String, side: Player) {
        guard BoardName.isValid(name) else { return nil }
        self.name = name
        self.side = side
    }

    /// How another board's opponent name begins.
    public static let prefix = "board:"
}
