import Lights
import Presentation
import TicTacToe

/// Draws the board as the LEDs look: plain text for scripts and logs, ANSI colour for the
/// interactive terminal.
public enum BoardRenderer {
    /// Three rows of cells (`.` off, `R` red, `G` green, `A` amber; lower case while blinking)
    /// beside the status LEDs.
    public static func plain(_ seen: SeenBoard) -> String {
        let rows = (0..<3).map { row in
            "  " + (0..<3).map { column -> String in
                let index = row * 3 + column
                if let color = seen.blinkingCells[index] { return color.symbol.lowercased() }
                return seen.frame.cells[index].symbol
            }.joined(separator: " ")
        }
        func led(_ on: Bool, _ blinking: Bool) -> String { blinking ? "blinking" : (on ? "on" : "off") }
        let status = "X(red) \(led(seen.frame.xStatus, seen.xBlinking))  O(green) \(led(seen.frame.oStatus, seen.oBlinking))"
        return [rows[0], rows[1] + "    " + status, rows[2]].joined(separator: "\n")
    }

    /// The full interactive screen: title (with the computer's level when it plays), the
    /// pairing's score, the matrix in colour, the status LEDs, a message and the key help. Lines end with "clear to end of line" so a redraw in place
    /// leaves no debris.
    public static func screen(frame: Frame, players: PlayerNames, score: Score, message: String, help: String = simulatorHelp) -> String {
        let clear = "\u{1B}[K"
        var lines: [String] = []
        lines.append("  \u{1B}[1m\(players.matchTitle)\u{1B}[0m")
        lines.append("  score: \(scoreLine(score, players: players))")
        lines.append("")
        lines.append("     ┌───┬───┬───┐")
        for row in 0..<3 {
            let cells = (0..<3).map { column in " \(dot(frame[row, column], frame.cells.brightness(at: row * 3 + column))) " }.joined(separator: "│")
            lines.append("     │\(cells)│   keys \((0..<3).map { String(KeyCommand.key(for: Position.all[row * 3 + $0])) }.joined(separator: " "))")
            lines.append(row < 2 ? "     ├───┼───┼───┤" : "     └───┴───┴───┘")
        }
        lines.append("")
        lines.append("  \(dot(frame.xStatus ? .red : .off, frame.xStatusBrightness)) \(players.label(for: .x))      \(dot(frame.oStatus ? .green : .off, frame.oStatusBrightness)) \(players.label(for: .o))")
        lines.append("")
        lines.append("  \(message)")
        lines.append("")
        lines.append("  " + help)
        return lines.map { $0 + clear }.joined(separator: "\r\n")
    }

    /// The simulator's keys.
    public static let simulatorHelp = "1–9 press a cell · n new game (once over) · N hold new game (restart mid-game) · m next opponent · q quit"

    /// A lit LED as a bold disc in its colour; a dim one as a small faint dot, so that it reads
    /// as dimmer in shape too, on a terminal without colour.
    private static func dot(_ color: LEDColor, _ brightness: Brightness = .full) -> String {
        let (style, glyph) = brightness == .dim ? ("2", "•") : ("1", "●")
        switch color {
        case .off: return "\u{1B}[2m○\u{1B}[0m"
        case .red: return "\u{1B}[\(style);31m\(glyph)\u{1B}[0m"
        case .green: return "\u{1B}[\(style);32m\(glyph)\u{1B}[0m"
        case .amber: return "\u{1B}[\(style);33m\(glyph)\u{1B}[0m"
        }
    }

    /// "Alice (X) 1 · Computer (O) 2 · draws 0": the score of the pairing `players` stand in.
    public static func scoreLine(_ score: Score, players: PlayerNames) -> String {
        "\(players.label(for: .x)) \(score.xWins) · \(players.label(for: .o)) \(score.oWins) · draws \(score.draws)"
    }

    /// A one-line account of a game event, with player names and a hint where a key helps.
    public static func message(for event: GameEvent, players: PlayerNames) -> String {
        switch event {
        case .ignored: event.text(players: players) + " Press n for a new game."
        case .fellAsleep: event.text(players: players) + " Any key wakes them."
        default: event.text(players: players)
        }
    }
}
