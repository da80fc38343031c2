import Lights
import TicTacToe

/// The game feedback table as one pure function: what the lights show for a session state.
public enum FrameRenderer {
    /// The colour of a player's marks and status LED.
    public static func color(of player: Player) -> LEDColor { player == .x ? .red : .green }

    /// Marks in their player's colour; an occupied cell just pressed amber; once won, every
    /// winning line and the winner's LED blink; once drawn, every cell and both LEDs blink; in
    /// play, the LED of the player to move is on. Asleep, everything is dark. Just after the
    /// opponent gesture, the choice of opponent (``frame(showing:)``) instead of the game.
    public static func frame(of state: SessionState) -> Frame {
        guard !state.isAsleep else { return .dark }
        if state.showsOpponent { return frame(showing: state.opponent) }
        let board = state.board
        var frame = Frame.dark
        for position in Position.all {
            guard let owner = board[position] else { continue }
            let blinks: Bool
            switch board.outcome {
            case .inProgress: blinks = false
            case .won(_, let lines): blinks = lines.contains(position)
            case .draw: blinks = true
            }
            frame.cells[position.index] = blinks && !state.blinkOn ? .off : color(of: owner)
        }
        if let flashing = state.flashing { frame.cells[flashing.index] = .amber }
        switch board.outcome {
        case .inProgress(let next):
            frame.xStatus = next == .x
            frame.oStatus = next == .o
        case .won(let winner, _):
            frame.xStatus = winner == .x && state.blinkOn
            frame.oStatus = winner == .o && state.blinkOn
        case .draw:
            frame.xStatus = state.blinkOn
            frame.oStatus = state.blinkOn
        }
        return frame
    }

    /// The choice of opponent, for a moment after the gesture: one cell of each colour for two
    /// players; for the computer, as many of its (green) cells as its level, in reading order.
    public static func frame(showing opponent: Opponent) -> Frame {
        var frame = Frame.dark
        switch opponent {
        case .person:
            frame.cells[0] = color(of: .x)
            frame.cells[2] = color(of: .o)
        case .computer(let level):
            for index in 0..<level.rawValue { frame.cells[index] = color(of: .o) }
        }
        return frame
    }
}
