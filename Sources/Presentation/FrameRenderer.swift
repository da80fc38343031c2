import Lights
import TicTacToe

/// The feedback table of `DESIGN.md` as one pure function: what the lights show for a board
/// and the animation state around it.
public enum FrameRenderer {
    /// The colour of a player's marks and status LED.
    public static func color(of player: Player) -> LEDColor { player == .x ? .red : .green }

    /// - Parameters:
    ///   - board: the game.
    ///   - flashing: an occupied cell that was just pressed, shown amber.
    ///   - blinkOn: the phase of the end-of-game blink.
    ///   - asleep: everything dark.
    public static func frame(board: Board, flashing: Position?, blinkOn: Bool, asleep: Bool) -> Frame {
        guard !asleep else { return .dark }
        var frame = Frame.dark
        for position in Position.all {
            guard let owner = board[position] else { continue }
            let blinks: Bool
            switch board.outcome {
            case .inProgress: blinks = false
            case .won(_, let line): blinks = line.contains(position)
            case .draw: blinks = true
            }
            frame.cells[position.index] = blinks && !blinkOn ? .off : color(of: owner)
        }
        if let flashing { frame.cells[flashing.index] = .amber }
        switch board.outcome {
        case .inProgress(let next):
            frame.xStatus = next == .x
            frame.oStatus = next == .o
        case .won(let winner, _):
            frame.xStatus = winner == .x && blinkOn
            frame.oStatus = winner == .o && blinkOn
        case .draw:
            frame.xStatus = blinkOn
            frame.oStatus = blinkOn
        }
        return frame
    }
}
