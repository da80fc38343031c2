import Lights
import ViewModel
import TicTacToe

/// The terminal's column of the table of states (docs/VIEWS.md): how each ``CellAppearance``
/// and ``Headline`` of the one definition (`Appearance`) is written in text. Every terminal view
/// (the simulator's screen, the plain text of scripts, `watch` and `watch --once`) draws through
/// it, and nothing else in Console decides what a state looks like.
///
/// ## Contract
/// - **Readable without colour.** Every appearance has its own text, and that text carries the
///   whole truth: the mark as its letter (`X`, `O`; `·` for none) between two signs saying
///   what else holds (`[X]` on a winning line, `=X=` in a drawn game, `!X!` a refused press,
///   `<O>` a cell of the choice of opponent); a free cell in the learner's box shows its beads
///   as a bar, taller with more (`(▁)`, `(▄)`, `(█)`). Colour is only an addition, in escapes around
///   the same text (``styled(_:marks:phase:lightsOut:)``): taking every escape out leaves
///   exactly ``text(of:)``.
/// - **The colour is the LEDs'.** A styled cell or status LED takes its colour, brightness and
///   pattern from `FrameRenderer`'s light for the same appearance: red X, green O (faint when the
///   marks are dim), amber for a refused press; in a blink's or a flicker's off phase what the
///   LED shows then (a refused mark's own colour, else nothing); uncoloured when the lights are
///   dark.
/// - Every cell's text is three columns wide, so the grids line up whatever they hold.
/// - Pure: functions of their arguments.
public enum TerminalLook {
    /// A cell's text without colour: ``mark(of:)`` between the two ``signs(of:)``.
    public static func text(of appearance: CellAppearance) -> String {
        let signs = signs(of: appearance)
        return "\(signs.open)\(mark(of: appearance))\(signs.close)"
    }

    /// The letter of the cell's mark, the bar of the learner's beads, or the dot of a cell
    /// without either.
    public static func mark(of appearance: CellAppearance) -> String {
        if case .beads(let level) = appearance { return bar(level) }
        return appearance.mark?.rawValue ?? "·"
    }

    /// A bar as tall as the beads' level.
    static func bar(_ level: BeadLevel) -> String {
        switch level {
        case .few: "▁"
        case .some: "▄"
        case .most: "█"
        }
    }

    /// What a cell shows beside its mark: nothing for a plain mark or an empty cell, else a sign
    /// on each side, one pair per kind of appearance.
    public static func signs(of appearance: CellAppearance) -> (open: Character, close: Character) {
        switch appearance {
        case .empty, .mark: (" ", " ")
        case .winning: ("[", "]")
        case .drawn: ("=", "=")
        case .refused: ("!", "!")
        case .offered: ("<", ">")
        case .beads: ("(", ")")
        }
    }

    /// The signs explained, one example each, for the simulator's legend.
    public static let legend: [(example: CellAppearance, meaning: String)] = [
        (.winning(.x), "winning line"), (.drawn(.o), "drawn game"), (.refused(.x), "refused press"), (.offered(.o), "opponent chosen"),
        (.beads(.most), "learner's beads"),
    ]

    /// A cell's text with colour added: its LED's colour and brightness as the LED shows in
    /// `phase`; faint and uncoloured while it is dark, for an empty cell, or when `lightsOut`
    /// (asleep, no board).
    public static func styled(
        _ appearance: CellAppearance, marks: MarkStyle = .standard, phase: Light.Phase = .lit, lightsOut: Bool = false
    ) -> String {
        paint(text(of: appearance), FrameRenderer.light(of: appearance, marks: marks), phase: phase, lightsOut: lightsOut)
    }

    /// What the board says under the grid, with the players' names: "Alice (X) to move.",
    /// "Computer (O) is thinking…", "A draw.", …
    public static func words(for headline: Headline, players: PlayerNames) -> String {
        switch headline {
        case .toMove(let player): "\(players.label(for: player)) to move."
        case .thinking: "\(players.label(for: .o)) is thinking…"
        case .won(let player): "\(players.label(for: player)) wins."
        case .draw: "A draw."
        case .asleep: "The lights are asleep: press any cell to wake them."
        case .choosingOpponent(.board(let remote)): "The board \(remote.name) plays \(remote.side) now; its game shows when it is heard."
        case .choosingOpponent(let opponent): "O is now played by \(opponent); a new game starts."
        case .unreachable: "The board cannot be reached."
        case .waitingForBoard(let player): "Waiting for \(players.board.map { "the board \($0.name) (\(player))" } ?? "the other board (\(player))"): it is not heard."
        }
    }

    /// The status LEDs for `headline` as the screen shows them: a disc for each (`●` lit, `•`
    /// lit dim, `○` dark) before its player's name, and how it changes when it is not steady
    /// ("blinking"); in colour while lit in `phase`.
    public static func statusLine(
        for headline: Headline, players: PlayerNames, marks: MarkStyle = .standard, phase: Light.Phase = .lit
    ) -> String {
        let lights = FrameRenderer.statusLights(of: headline, marks: marks)
        let sides = [(Player.x, lights.x), (Player.o, lights.o)].map { player, light in
            paint(statusDisc(light), light, phase: phase, lightsOut: false) + " " + players.label(for: player)
                + (light.flatMap { patternWords($0.pattern) }.map { " " + $0 } ?? "")
        }
        return sides.joined(separator: "      ")
    }

    /// The status LEDs for `headline` in words, for plain text: "status LEDs: X on, O off".
    public static func plainStatus(for headline: Headline, marks: MarkStyle = .standard) -> String {
        let lights = FrameRenderer.statusLights(of: headline, marks: marks)
        return "status LEDs: X \(lightWords(lights.x)), O \(lightWords(lights.o))"
    }

    /// One status LED in words: "off", "on", "dim", "blinking", "dim blinking", …
    public static func lightWords(_ light: Light?) -> String {
        guard let light else { return "off" }
        let level = light.brightness == .dim ? "dim" : "on"
        guard let pattern = patternWords(light.pattern) else { return level }
        return light.brightness == .dim ? "\(level) \(pattern)" : pattern
    }

    /// How a light changes in time, in a word; `nil` for steady.
    static func patternWords(_ pattern: Light.Pattern) -> String? {
        switch pattern {
        case .steady: nil
        case .blink: "blinking"
        case .flicker: "flickering"
        }
    }

    /// A status LED's disc: its brightness in its shape, for a terminal without colour.
    static func statusDisc(_ light: Light?) -> String {
        guard let light else { return "○" }
        return light.brightness == .dim ? "•" : "●"
    }

    /// `text` in the colour and weight `light` shows in `phase` (in its off phase, what lies
    /// beneath it, if anything), else faint.
    private static func paint(_ text: String, _ light: Light?, phase: Light.Phase, lightsOut: Bool) -> String {
        guard let shown = light?.shown(in: phase), !lightsOut, let colour = sgrColour(shown.color) else {
            return "\(escape)2m\(text)\(escape)0m"
        }
        let weight = switch shown.brightness {
        case .full: 1
        case .half: 22
        case .dim: 2
        }
        return "\(escape)\(weight);\(colour)m\(text)\(escape)0m"
    }

    /// The control sequence introducer: every style above starts with it.
    static let escape = "\u{1B}["

    /// The ANSI foreground colour of an LED's colour.
    private static func sgrColour(_ color: LEDColor) -> Int? {
        switch color {
        case .off: nil
        case .red: 31
        case .green: 32
        case .amber: 33
        }
    }
}
