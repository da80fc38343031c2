import Lights
import TicTacToe

/// The LEDs' column of the table of states (docs/VIEWS.md): how each ``Appearance`` lights
/// the matrix and the status LEDs, and so the frame for a session state. Pure.
///
/// Every state differs from every other in brightness or in time, not only in colour: X's marks
/// full and steady, O's dim (with ``MarkStyle/colourAndBrightness``), a refused press a fast
/// flicker, a win or a draw the slow blink, the learner's box the slow blink on free cells in
/// three brightnesses while O's status LED stays steady, the status LEDs on the side of the
/// player they stand for.
public enum FrameRenderer {
    /// The colour of a player's marks and status LED.
    public static func color(of player: Player) -> LEDColor { player == .x ? .red : .green }

    /// How one cell's LED shows `appearance`, or `nil` for dark.
    public static func light(of appearance: CellAppearance, marks: MarkStyle = .standard) -> Light? {
        switch appearance {
        case .empty: nil
        case .mark(let player), .offered(let player):
            Light(color: color(of: player), brightness: marks.brightness(of: player), pattern: .steady)
        case .winning(let player), .drawn(let player):
            Light(color: color(of: player), brightness: marks.brightness(of: player), pattern: .blink)
        case .refused(let mark):
            Light(color: .amber, brightness: .full, pattern: .flicker, between: mark.flatMap { light(of: .mark($0), marks: marks) })
        case .beads(let level):
            Light(color: color(of: .o), brightness: brightness(of: level), pattern: .blink)
        }
    }

    /// How bright a cell shows `level` of the learner's beads: its three steps are the LEDs'
    /// three brightnesses, whatever the marks' style (the brightness is what it shows).
    public static func brightness(of level: BeadLevel) -> Brightness {
        switch level {
        case .few: .dim
        case .some: .half
        case .most: .full
        }
    }

    /// How the X and O status LEDs show `headline` (`nil`: dark), and whether the matrix is dark
    /// whatever its cells (asleep).
    public static func statusLights(of headline: Headline, marks: MarkStyle = .standard) -> (x: Light?, o: Light?) {
        func lit(_ player: Player, _ pattern: Light.Pattern) -> Light {
            Light(color: color(of: player), brightness: marks.brightness(of: player), pattern: pattern)
        }
        switch headline {
        case .toMove(.x): return (lit(.x, .steady), nil)
        case .toMove(.o), .thinking: return (nil, lit(.o, .steady))
        case .won(.x): return (lit(.x, .blink), nil)
        case .won(.o): return (nil, lit(.o, .blink))
        case .draw: return (lit(.x, .blink), lit(.o, .blink))
        // Steady marks under one blinking status LED: no win (its line blinks) and no draw.
        case .waitingForBoard(.x): return (lit(.x, .blink), nil)
        case .waitingForBoard(.o): return (nil, lit(.o, .blink))
        case .asleep, .choosingOpponent, .unreachable: return (nil, nil)
        }
    }

    /// Whether the LEDs are all dark for `headline`, whatever the cells: asleep, or no board.
    public static func isDark(_ headline: Headline) -> Bool { headline == .asleep || headline == .unreachable }

    /// What the lights show for `state` at this moment: its appearance, with the blink and the
    /// flicker in the phases the state holds.
    /// Rendered cell by cell, with no ``Appearance`` made: it runs on every state.
    public static func frame(of state: SessionState, marks: MarkStyle = .standard) -> Frame {
        let phase = Light.Phase(of: state)
        guard !(state.showsOpponent && !state.isAsleep) else { return frame(of: Appearance(state), phase: phase, marks: marks) }
        let beads = Appearance.beadLevels(of: state)
        return frame(headline: Headline(state), phase: phase, marks: marks) { Appearance.cell($0, of: state, beads: beads) }
    }

    /// What the lights show for `appearance` in `phase`.
    public static func frame(of appearance: Appearance, phase: Light.Phase, marks: MarkStyle = .standard) -> Frame {
        frame(headline: appearance.headline, phase: phase, marks: marks) { appearance.cells[$0.index] }
    }

    private static func frame(headline: Headline, phase: Light.Phase, marks: MarkStyle, cell: (Position) -> CellAppearance) -> Frame {
        guard !isDark(headline) else { return .dark }
        var frame = Frame.dark
        for position in Position.all {
            guard let shown = light(of: cell(position), marks: marks)?.shown(in: phase) else { continue }
            frame.cells.set(shown.color, shown.brightness, at: position.index)
        }
        let status = statusLights(of: headline, marks: marks)
        frame.xStatus = status.x?.isOn(in: phase) ?? false
        frame.oStatus = status.o?.isOn(in: phase) ?? false
        frame.xStatusBrightness = marks.brightness(of: .x)
        frame.oStatusBrightness = marks.brightness(of: .o)
        return frame
    }

    /// The choice of opponent as the matrix shows it after the gesture.
    public static func frame(showing opponent: Opponent, marks: MarkStyle = .standard) -> Frame {
        frame(of: Appearance(cells: Appearance.offering(opponent), headline: .choosingOpponent(opponent)), phase: .lit, marks: marks)
    }
}

/// How one LED shows an appearance: its colour, its brightness and its pattern in time.
public struct Light: Sendable, Hashable {
    public var color: LEDColor
    public var brightness: Brightness
    public var pattern: Pattern
    /// What shows in the pattern's off phase: dark, or (a refused press on a mark) the mark, so
    /// that the flicker tells an empty cell from X and from O.
    public var betweenColor: LEDColor
    public var betweenBrightness: Brightness

    /// An LED's pattern in time, the cue that needs no colour.
    public enum Pattern: String, Sendable, Hashable, CaseIterable {
        /// Lit all the time.
        case steady
        /// On and off every ``GameTimings/blinkHalfPeriod``: the end of a game.
        case blink
        /// On and off every ``GameTimings/flickerHalfPeriod``, for ``GameTimings/illegalFlash``:
        /// a refused press, several times faster than the blink.
        case flicker
    }

    /// Where the blink and the flicker stand at one moment.
    public struct Phase: Sendable, Hashable {
        public var blinkOn: Bool
        public var flickerOn: Bool

        public init(blinkOn: Bool, flickerOn: Bool) {
            self.blinkOn = blinkOn
            self.flickerOn = flickerOn
        }

        /// Both on: what a still picture of each state shows.
        public static let lit = Phase(blinkOn: true, flickerOn: true)

        /// Where `state`'s blink and flicker stand.
        public init(of state: SessionState) {
            self.init(blinkOn: state.blinkOn, flickerOn: state.flashLit)
        }
    }

    /// - Parameter between: what shows in the off phase (`nil`: dark); steady in itself.
    public init(color: LEDColor, brightness: Brightness, pattern: Pattern, between: Light? = nil) {
        self.color = color
        self.brightness = brightness
        self.pattern = pattern
        betweenColor = between?.color ?? .off
        betweenBrightness = between?.brightness ?? .full
    }

    /// The colour and brightness shown in `phase`, or `nil` for dark.
    public func shown(in phase: Phase) -> (color: LEDColor, brightness: Brightness)? {
        if isOn(in: phase) { return (color, brightness) }
        return betweenColor.isLit ? (betweenColor, betweenBrightness) : nil
    }

    /// Whether the LED is lit in `phase`.
    public func isOn(in phase: Phase) -> Bool {
        switch pattern {
        case .steady: true
        case .blink: phase.blinkOn
        case .flicker: phase.flickerOn
        }
    }
}
