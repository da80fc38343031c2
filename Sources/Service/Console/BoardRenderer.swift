import Lights
import ViewModel
import TicTacToe

/// Draws an ``Appearance`` in the terminal through ``TerminalLook``: plain text for scripts and
/// logs, the full screen with colour for the simulator and `tictactoe watch`. Both keep every
/// state readable with their colour escapes taken out (the monochrome eye in ConsoleTests reads
/// each back); neither decides anything of its own about what a state looks like.
public enum BoardRenderer {
    /// Three rows of cells, the status LEDs in words beside the middle one, then what the board
    /// says, for scripts and logs:
    ///
    ///       [X]  O   O
    ///        O  [X]  ·     status LEDs: X blinking, O off
    ///        ·   O  [X]
    ///     Alice (X) wins.
    public static func plain(_ appearance: Appearance, players: PlayerNames, marks: MarkStyle = .standard) -> String {
        let rows = (0..<3).map { row in
            "  " + appearance.cells[row * 3..<row * 3 + 3].map(TerminalLook.text(of:)).joined(separator: " ")
        }
        let status = TerminalLook.plainStatus(for: appearance.headline, marks: marks)
        return [rows[0].trimmingTrailingSpaces, rows[1] + "    " + status, rows[2].trimmingTrailingSpaces,
                TerminalLook.words(for: appearance.headline, players: players)].joined(separator: "\n")
    }

    /// The full interactive screen: the title (with the computer's level when it plays), the
    /// pairing's score (`nil`: not known), the grid beside its keys and legend, the status LEDs,
    /// what the board says, a message and the key help; colour as the LEDs show in `phase`.
    /// Lines end with "clear to end of line" so a redraw in place leaves no debris.
    public static func screen(
        _ appearance: Appearance, players: PlayerNames, score: Score?, message: String, help: String = simulatorHelp,
        marks: MarkStyle = .standard, phase: Light.Phase = .lit
    ) -> String {
        var lines: [String] = []
        lines.append("  \(TerminalLook.escape)1m\(players.matchTitle)\(TerminalLook.escape)0m")
        lines.append("  score: " + (score.map { scoreLine($0, players: players) } ?? "not known"))
        lines.append("")
        lines += grid(appearance, marks: marks, phase: phase)
        lines.append("")
        lines.append("  " + TerminalLook.statusLine(for: appearance.headline, players: players, marks: marks, phase: phase))
        lines.append("")
        lines.append("  " + TerminalLook.words(for: appearance.headline, players: players))
        lines.append("  \(message)")
        lines.append("")
        lines += wrapped(help).map { "  " + $0 }
        return lines.map { $0 + "\(TerminalLook.escape)K" }.joined(separator: "\r\n")
    }

    /// `help`'s items (separated by " · ") on as few lines as fit an 80-column terminal with the
    /// screen's margin: a wrapped line would push the screen down and leave debris on a redraw.
    static func wrapped(_ help: String, width: Int = 76) -> [String] {
        var lines: [String] = []
        for item in help.split(separator: " · ").map(String.init) {
            if let last = lines.last, last.count + 3 + item.count <= width {
                lines[lines.count - 1] = last + " · " + item
            } else {
                lines.append(item)
            }
        }
        return lines
    }

    /// The grid in box-drawing lines, each row beside its keys and a line of the legend.
    static func grid(_ appearance: Appearance, marks: MarkStyle, phase: Light.Phase) -> [String] {
        let lightsOut = FrameRenderer.isDark(appearance.headline)
        var lines = ["     ┌───┬───┬───┐"]
        for row in 0..<3 {
            let cells = (0..<3).map { column in
                TerminalLook.styled(appearance.cells[row * 3 + column], marks: marks, phase: phase, lightsOut: lightsOut)
            }
            let keys = (0..<3).map { String(KeyCommand.key(for: Position.all[row * 3 + $0])) }.joined(separator: " ")
            lines.append("     │\(cells.joined(separator: "│"))│   keys \(keys)" + legendLine(row))
            lines.append(row < 2 ? "     ├───┼───┼───┤" : "     └───┴───┴───┘")
        }
        return lines
    }

    /// Row `row`'s part of the legend: what the signs around a mark mean, one entry beside the
    /// top row and two beside each other, so that the screen fits 80 columns.
    private static func legendLine(_ row: Int) -> String {
        let entries = TerminalLook.legend.dropFirst(row == 0 ? 0 : 2 * row - 1).prefix(row == 0 ? 1 : 2)
        return entries.map { "    \(TerminalLook.text(of: $0.example)) \($0.meaning)" }.joined()
    }

    /// The simulator's keys.
    public static let simulatorHelp = "1–9 press a cell · n new game (once over) · N hold new game (restart mid-game) · m next opponent · q quit"

    /// "Alice (X) 1 · Computer (O) 2 · draws 0": the score of the pairing `players` stand in.
    public static func scoreLine(_ score: Score, players: PlayerNames) -> String {
        "\(players.label(for: .x)) \(score.xWins) · \(players.label(for: .o)) \(score.oWins) · draws \(score.draws)"
    }

    /// A one-line account of a game event, with player names and a hint where a key helps.
    public static func message(for event: GameEvent, players: PlayerNames) -> String {
        switch event {
        case .ignored: event.text(players: players) + " Press n for a new game."
        case .fellAsleep: event.text(players: players) + " A cell key or n wakes them."
        default: event.text(players: players)
        }
    }
}

extension String {
    /// The string without the spaces at its end.
    var trimmingTrailingSpaces: String {
        String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
    }
}
