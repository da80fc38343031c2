import Basics
import TicTacToe

/// Optional names of the two players, for logs and the terminal: "Alice (X) vs Bob (O)"; and,
/// against the computer, "Alice (X) vs Computer (O) at level 3" or "Alice (X) vs Learner (O)".
public struct PlayerNames: Sendable, Hashable {
    public var x: String?
    public var o: String?
    /// The computer's level when it plays O (its label then replaces O's name).
    public var computer: ComputerLevel?
    /// The matchbox learner plays O (its label then replaces O's name).
    public var learner = false
    /// Another board plays (its label then replaces its mark's name).
    public var board: RemoteBoard?

    public init(x: String? = nil, o: String? = nil) {
        self.x = x.flatMap { $0.isEmpty ? nil : $0 }
        self.o = o.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// These names as they stand against `opponent`.
    public func facing(_ opponent: Opponent) -> PlayerNames {
        var names = self
        names.computer = opponent.level
        names.learner = opponent == .learner
        names.board = opponent.remote
        return names
    }

    /// The mark this board's own players may not play: O against the computer or the learner,
    /// the other board's mark against it; `nil` for two players.
    public var othersSide: Player? {
        if let board { return board.side }
        return computer != nil || learner ? .o : nil
    }

    /// "the board kitchen (O)", for the other board; "the other board" when none plays.
    public var otherBoardLabel: String {
        board.map { "the board \($0.name) (\($0.side))" } ?? "the other board"
    }

    /// "Alice (X)" when named, "Computer (O)" for the computer, "Learner (O)" for the learner,
    /// "Board kitchen (O)" for another board, else "X".
    public func label(for player: Player) -> String {
        if let board, player == board.side { return "Board \(board.name) (\(player))" }
        if player == .o, computer != nil { return "Computer (O)" }
        if player == .o, learner { return "Learner (O)" }
        let name = player == .x ? x : o
        return name.map { "\($0) (\(player))" } ?? "\(player)"
    }

    /// The longest name a player may have, in characters, and in bytes (a character can be
    /// many: an emoji flag is 8, a letter under a hundred thousand accents is one character).
    public static let longestName = 32, longestNameBytes = 128

    /// Why `text` cannot be a player's name, or nil when it can: control and format characters
    /// would reach a terminal or a log raw. The one rule for every way in (the configuration,
    /// the command line, the saved history).
    public static func problem(with text: String) -> String? {
        guard text.utf8.count > longestNameBytes || text.count > longestName || text.unicodeScalars.contains(where: \.isInvisible) else {
            return nil
        }
        return "must be a name of at most \(longestName) characters (\(longestNameBytes) bytes) on one line, without control characters."
    }

    /// "Alice (X) vs Bob (O)", or "Alice (X) vs Computer (O) at level 3".
    public var matchTitle: String {
        "\(label(for: .x)) vs \(label(for: .o))" + (computer.map { " at \($0)" } ?? "")
    }
}
