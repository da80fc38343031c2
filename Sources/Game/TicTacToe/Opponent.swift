/// Who plays O: a second person at the board, the computer at one of its levels, or the
/// matchbox learner (Michie's MENACE, which learns from every game it plays). X is always a
/// person. Chosen on the board (holding new game and tapping a cell steps through them), and
/// kept with the game.
public enum Opponent: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case person
    case computer(ComputerLevel)
    case learner

    /// Two players, the computer from level 1 to 4, then the learner: the order the board steps
    /// through.
    public static let allCases: [Opponent] = [.person] + ComputerLevel.allCases.map { .computer($0) } + [.learner]

    /// The next choice in ``allCases``, after the last the first again.
    public var next: Opponent {
        let all = Self.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[(index + 1) % all.count]
    }

    /// The computer's level, if the computer plays.
    public var level: ComputerLevel? {
        if case .computer(let level) = self { level } else { nil }
    }

    /// Whether the board plays O itself (the computer at a level, or the learner): then O's
    /// moves are the board's, and a person's press in O's turn is refused.
    public var isMachine: Bool { self != .person }

    /// The name used in configuration files, on the command line and in saved games:
    /// "two-players", "computer-1" … "computer-4", "learner".
    public var name: String {
        switch self {
        case .person: "two-players"
        case .computer(let level): "computer-\(level.rawValue)"
        case .learner: "learner"
        }
    }

    /// The opponent called `name`, or `nil`.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    public var description: String {
        switch self {
        case .person: "two players"
        case .computer(let level): "the computer at \(level)"
        case .learner: "the matchbox learner"
        }
    }
}
