import TicTacToe

/// How the API, the history and the commands name a game's outcome: "playing", "x-wins",
/// "o-wins" or "draw".
public enum OutcomeName {
    public static func of(_ outcome: Outcome) -> String {
        switch outcome {
        case .inProgress: "playing"
        case .won(let player, _): player == .x ? "x-wins" : "o-wins"
        case .draw: "draw"
        }
    }

    /// The winner an outcome's name says, if it says one.
    public static func winner(_ name: String) -> Player? {
        switch name {
        case "x-wins": .x
        case "o-wins": .o
        default: nil
        }
    }

    public static let draw = "draw"
}
