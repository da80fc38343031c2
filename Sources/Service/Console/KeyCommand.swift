import TicTacToe

/// What a key does in the terminal game.
public enum KeyCommand: Sendable, Hashable {
    /// Tap the button of a cell.
    case cell(Position)
    /// A short press of new game.
    case newGame
    /// Hold new game past the hold time: the mid-game restart (terminals report no key-up, so a
    /// separate key stands in for holding).
    case holdNewGame
    /// The opponent gesture (hold new game, tap a cell): the next opponent — two players, the
    /// computer at level 1 to 4, the learner, each other board seen online — from a new game on.
    case nextOpponent
    /// Do nothing for a second (scripts only).
    case wait
    /// Do nothing until the board has gone to sleep (scripts only).
    case waitForSleep
    case quit

    /// The command for a key, or `nil` for a key that means nothing.
    ///
    /// Cells follow a numeric keypad: 7 8 9 is the top row, 1 2 3 the bottom.
    public init?(key: Character) {
        switch key {
        case "1"..."9":
            guard let digit = key.wholeNumberValue, let position = Position(keypadKey: digit) else { return nil }
            self = .cell(position)
        case "n": self = .newGame
        case "N": self = .holdNewGame
        case "m": self = .nextOpponent
        case ".": self = .wait
        case "z": self = .waitForSleep
        case "q": self = .quit
        default: return nil
        }
    }

    /// The key that gives a cell.
    public static func key(for position: Position) -> Character {
        Character(String(position.keypadKey))
    }
}
