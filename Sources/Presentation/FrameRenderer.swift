import Lights
import TicTacToe

/// The game feedback table as one pure function: what the lights show for a session state.
public enum FrameRenderer {
    /// The colour of a player's marks and status LED.
    public static func color(of player: Player) -> LEDColor { player == .x ? .red : .green }

    /// Marks in their player's colour (and brightness, by `marks`); an occupied cell just pressed
    /// amber, at full brightness; once won, every winning line and the winner's LED blink; once
    /// drawn, every cell and both LEDs blink; in play, the LED of the player to move is on.
    /// Asleep, everything is dark. Just after the opponent gesture, the choice of opponent
    /// (``frame(showing:marks:)``) instead of the game.
    public static func frame(of state: SessionState, marks: MarkStyle = .colour) -> Frame {
        guard !state.isAsleep else { return .dark }
        if state.showsOpponent { return frame(showing: state.opponent, marks: marks) }
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
            frame.cells.set(blinks && !state.blinkOn ? .off : color(of: owner), marks.brightness(of: owner), at: position.index)
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
        frame.xStatusBrightness = marks.brightness(of: .x)
        frame.oStatusBrightness = marks.brightness(of: .o)
        return frame
    }

    /// The choice of opponent, for a moment after the gesture: one cell of each colour for two
    /// players; for the computer, as many of its (O's) cells as its level, in reading order.
    public static func frame(showing opponent: Opponent, marks: MarkStyle = .colour) -> Frame {
        var frame = Frame.dark
        switch opponent {
        case .person:
            frame.cells.set(color(of: .x), marks.brightness(of: .x), at: 0)
            frame.cells.set(color(of: .o), marks.brightness(of: .o), at: 2)
        case .computer(let level):
            for index in 0..<level.rawValue { frame.cells.set(color(of: .o), marks.brightness(of: .o), at: index) }
        }
        return frame
    }
}
