import Devices
import Lights
import Matchboxes
import ViewModel
import TicTacToe

/// Everything that configures one board: wiring, timings, player names, the opponent and how
/// the lights tell the marks apart.
public struct BoardSettings: Sendable, Hashable {
    public var pins: PinMap
    public var buttons: ButtonTimings
    public var game: GameTimings
    /// How long each matrix row stays lit; a full frame takes three rows.
    public var scanRowPeriod: Duration
    public var players: PlayerNames
    /// Who plays O when there is no saved game to carry on from (a saved game keeps its own).
    public var opponent: Opponent
    /// How the lights tell X's marks from O's. Colour and brightness by default: about one man in
    /// twelve cannot tell the matrix's red from its green, and the one who set the board up is
    /// rarely the one who needs it.
    public var marks: MarkStyle
    /// The LEDs the board is built with, as their datasheet rates them: how dim O must be for
    /// every eye to read it as the dimmer (``dimCycle``).
    public var leds: LEDPart
    /// Which rules the matchbox learner follows: the board's quick ones by default, or Michie's
    /// with ``michieCounts``.
    public var learnerRules: LearnerRules.Named
    /// The counts Michie's rules follow when ``learnerRules`` names them: his own by default, or
    /// a maker's (the configuration's bead keys).
    public var michieCounts: LearnerRules

    public init(
        pins: PinMap = .standard, buttons: ButtonTimings = ButtonTimings(), game: GameTimings = GameTimings(),
        scanRowPeriod: Duration = .microseconds(500), players: PlayerNames = PlayerNames(), opponent: Opponent = .person,
        marks: MarkStyle = .standard, leds: LEDPart = .standard,
        learnerRules: LearnerRules.Named = .quick, michieCounts: LearnerRules = .michie
    ) {
        self.learnerRules = learnerRules
        self.michieCounts = michieCounts
        self.opponent = opponent
        self.marks = marks
        self.leds = leds
        self.pins = pins
        self.buttons = buttons
        self.game = game
        self.scanRowPeriod = scanRowPeriod
        self.players = players
    }

    /// The rules the learner follows.
    public var learner: LearnerRules { learnerRules == .michie ? michieCounts : .quick }

    /// Below this many times a second the eye sees a lit LED flicker.
    public static let minimumFrameRate = 100

    /// The longest row period that keeps ``minimumFrameRate`` with every LED at full brightness:
    /// three rows make a frame.
    public static let longestScanRow: Duration = .seconds(1) / (3 * minimumFrameRate)

    /// How dim O's marks and status LED are, chosen from ``leds`` (``DimCycle/init(for:)``).
    public var dimCycle: DimCycle { DimCycle(for: leds) }

    /// The longest row period that refreshes every lit LED ``minimumFrameRate`` times a second
    /// with these marks: a dim LED is lit only one frame of ``dimCycle``.
    public var longestScanRow: Duration {
        marks == .colour ? Self.longestScanRow : Self.longestScanRow / dimCycle.frames
    }

    /// Full matrix frames per second at this row period.
    public var scanFrameRate: Double {
        1 / (3 * Double(scanRowPeriod.nanoseconds) / 1e9)
    }

    /// How many times a second the dimmest lit LED is refreshed at this row period.
    public var slowestRefreshRate: Double {
        marks == .colour ? scanFrameRate : scanFrameRate / Double(dimCycle.frames)
    }
}
