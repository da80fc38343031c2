import Basics
import ConfigurationFile
import Devices
import GPIO
import Lights
import Matchboxes
import ViewModel
import TicTacToe
import WiredBoard

/// Every key of the configuration file, written once: its table and name, what it sets, its
/// range and what it means. Defaults are not written here: they are read from the types the
/// keys set (`BoardSettings()`, `PinMap.standard`, `WebSettings()`, `NetworkSettings()`), so a default
/// lives in one place too. The `[web]` table's keys are the web view's own (`WebSettings.Key`,
/// which `tictactoe-web` reads with, knowing nothing of the board), the `[network]` table's the
/// link's (`NetworkSettings.Key`); they are listed here as they are.
///
/// Derived from it: the reader's checks (``Configuration/parse(_:file:)``), the command line's
/// limits (`--idle-sleep`, the player names), the whole default file (``defaultFile``,
/// `tictactoe check-config --print-default`) and docs/CONFIGURATION.md's table
/// (``referenceTable``). The file the package installs, `Hardware/tictactoe.toml`, is the
/// previous release's (dpkg would ask about an edited copy of a changed one): tests hold it to
/// read as the same defaults.
public enum ConfigurationSchema {
    /// What a key holds, and where its value goes.
    public enum Value: Sendable {
        /// `"auto"`, or a chip's path, name or label.
        case chip
        /// A player's name.
        case name(WritableKeyPath<PlayerNames, String?> & Sendable)
        /// The BCM line of a group of one (a button, a status LED), or the list of a larger group.
        case pins(PinGroup)
        case polarity(WritableKeyPath<PinMap, Polarity> & Sendable)
        /// Who plays O, by name.
        case opponent(WritableKeyPath<BoardSettings, Opponent> & Sendable)
        /// A whole number of `unit`s within `range`; `why` explains a limit that is not obvious.
        case duration(WritableKeyPath<BoardSettings, Duration> & Sendable, TimeUnit, range: ClosedRange<Int>, why: String?)
        /// How the lights tell the marks apart.
        case marks(WritableKeyPath<BoardSettings, MarkStyle> & Sendable)
        /// A figure of the LEDs' datasheet: a number of `unit`, a decimal allowed, within `range`.
        case figure(WritableKeyPath<BoardSettings, Double> & Sendable, unit: String, range: ClosedRange<Double>)
        /// The learner's rules by name (``LearnerRules/Named``).
        case learnerRules(WritableKeyPath<BoardSettings, LearnerRules.Named> & Sendable)
        /// A whole number of the learner's beads within `range`: one of the counts Michie's rules
        /// follow.
        case beads(WritableKeyPath<BoardSettings, Int> & Sendable, range: ClosedRange<Int>)
        /// A key of the web view's table, which the web view's settings define and read.
        case web(WebSettings.Key)
        /// A key of the link to a broker's table, which the link's settings define and read.
        case network(NetworkSettings.Key)
    }

    /// One key of the file.
    public struct Key: Sendable {
        public let table: String?
        public let name: String
        public let value: Value
        /// What the key means, in sentences: the default file's comment and docs/CONFIGURATION.md's column.
        public let documentation: String

        /// `table.name`, or `name` at the top level: how messages and documents name the key.
        public var path: String { ConfigurationDocument.path(table: table, key: name) }
    }

    /// A section of the file: its name, what it is for, and its keys.
    public struct Table: Sendable {
        public let name: String
        public let documentation: String?
        public let keys: [Key]
    }

    public enum TimeUnit: String, Sendable {
        case seconds = "s", milliseconds = "ms", microseconds = "µs"

        public func duration(_ count: Int) -> Duration {
            switch self {
            case .seconds: .seconds(count)
            case .milliseconds: .milliseconds(count)
            case .microseconds: .microseconds(count)
            }
        }

        /// `duration` in whole units (durations set through a key always are).
        public func count(of duration: Duration) -> Int {
            let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
            switch self {
            case .seconds: return Int(nanoseconds / 1_000_000_000)
            case .milliseconds: return Int(nanoseconds / 1_000_000)
            case .microseconds: return Int(nanoseconds / 1_000)
            }
        }
    }

    /// The longest player name: long enough for a name, short enough for a log line.
    public static let nameLength = PlayerNames.longestName

    public static let chip = Key(
        table: nil, name: "chip", value: .chip,
        documentation: "Which GPIO chip: \"auto\" finds the Raspberry Pi's header chip by its label; otherwise a path (/dev/gpiochip0), a name (gpiochip0) or a label (pinctrl-bcm2711, pinctrl-rp1, …).")

    public static let debounce = Key(
        table: "timings", name: "debounce_ms", value: .duration(\.buttons.debounce, .milliseconds, range: 1...200, why: nil),
        documentation: "How long after an accepted edge a button's contacts are ignored. It adds no delay to a press.")
    public static let kernelDebounce = Key(
        table: "timings", name: "kernel_debounce_ms",
        value: .duration(\.buttons.kernelDebounce, .milliseconds, range: 0...200, why: nil),
        documentation: "The kernel's own debounce (libgpiod v2 only; 0 turns it off). It delays every press by as much, so it may not exceed debounce_ms.")
    public static let hold = Key(
        table: "timings", name: "hold_ms", value: .duration(\.buttons.hold, .milliseconds, range: 1...10_000, why: nil),
        documentation: "How long new game must be held to abandon a game in progress; longer than debounce_ms.")
    public static let illegalFlash = Key(
        table: "timings", name: "illegal_flash_ms", value: .duration(\.game.illegalFlash, .milliseconds, range: 50...5000, why: nil),
        documentation: "How long a refused press flickers its cell amber (on and off every \(TimeUnit.milliseconds.count(of: GameTimings().flickerHalfPeriod)) ms).")
    public static let blink = Key(
        table: "timings", name: "blink_ms", value: .duration(\.game.blinkHalfPeriod, .milliseconds, range: 50...5000, why: nil),
        documentation: "Half a blink period of the winning lines and of a draw.")
    public static let scanRow = Key(
        table: "timings", name: "scan_row_us",
        value: .duration(\.scanRowPeriod, .microseconds, range: 50...TimeUnit.microseconds.count(of: BoardSettings.longestScanRow),
                         why: "three rows make a frame, and the matrix flickers below \(BoardSettings.minimumFrameRate) frames a second"),
        documentation: "How long each matrix row stays lit; three rows make a frame.")
    public static let computerThinking = Key(
        table: "timings", name: "computer_think_ms",
        value: .duration(\.game.computerThinking, .milliseconds, range: 0...5000, why: nil),
        documentation: "How long the computer \"thinks\" before its move shows, so that its turn can be seen coming.")
    public static let opponent = Key(
        table: "players", name: "opponent", value: .opponent(\.opponent),
        documentation: "Who plays O when there is no saved game: a second person, the computer at level 1 (random) to 4 (never loses), or the learner (Michie's matchboxes: it learns from every game it plays, and its boxes are saved with the game). Holding new game and tapping a cell changes it on the board; the choice is saved with the game.")
    public static let idleSleep = Key(
        table: "timings", name: "idle_sleep_s", value: .duration(\.game.idleSleep, .seconds, range: 10...86_400, why: nil),
        documentation: "Seconds without a press before the lights go to sleep; any press wakes them.")
    public static let otherBoardWait = Key(
        table: "timings", name: "other_board_wait_s",
        value: .duration(\.game.otherBoardWait, .seconds, range: 60...86_400, why: nil),
        documentation: "Seconds a board waits for another board it plays, not heard (its link, its broker or the board itself away), before it gives that game up and plays two players.")

    public static let marks = Key(
        table: "lights", name: "marks", value: .marks(\.marks),
        documentation: "How X's marks are told from O's: \"colour\", red and green only; \"colour-and-brightness\", O's marks and status LED also dim (lit one frame in as many as the LEDs below need: \(DimCycle.standard.frames) for the default ones), so that a player who cannot tell red from green, or sees no colour, still reads the board. The refused press's flicker and the blinking stay as they are.")

    /// The LED part's figures: the dies that show X (red) and O (green).
    public static func wavelength(_ die: LEDPart.Die) -> Key {
        Key(table: "lights", name: "\(die)_wavelength_nm",
            value: .figure(\.leds[die].dominantWavelength, unit: "nm", range: die.wavelengths),
            documentation: "The \(die) die's dominant wavelength (λd) as its datasheet gives it; \(die == .red ? "X's" : "O's") marks and status LED.")
    }
    public static func intensity(_ die: LEDPart.Die) -> Key {
        Key(table: "lights", name: "\(die)_intensity_mcd",
            value: .figure(\.leds[die].luminousIntensity, unit: "mcd", range: LEDDie.intensities),
            documentation: "The \(die) die's luminous intensity (typical Iv) as its datasheet gives it, at the same current as the \(die == .red ? "green" : "red") die's.")
    }
    public static let ledKeys = LEDPart.Die.allCases.flatMap { [wavelength($0), intensity($0)] }

    public static let learnerRules = Key(
        table: "learner", name: "rules", value: .learnerRules(\.learnerRules),
        documentation: "Which rules the learner counts its beads by: \"quick\", the board's (one bead of each move in a fresh box, one more for a win, five for a draw, five taken for a loss), chosen by measurement: it learns far faster; \"michie\", Michie's machine of 1961, with the counts below. Left out: \"quick\", or \"michie\" when a count below is not Michie's own (a file of release 0.4 or 0.5 that changed one keeps it); \"quick\" with a count changed is refused.")

    /// The beads of each move in a fresh box, for each of the learner's four moves.
    public static let initialBeads = LearnerRules.moveNames.indices.map { move in
        Key(table: "learner", name: "\(LearnerRules.moveNames[move])_move_beads", value: .beads(\.michieCounts.initialBeads[move], range: 1...20),
            documentation: "Under Michie's rules, beads of each move in a fresh box for the learner's \(LearnerRules.moveNames[move]) move of a game\(move == 0 ? " (his own: 4, 3, 2 and 1 for its four moves: early boxes learn slowly, late ones fast)" : "").")
    }
    public static let learnerKeys = [learnerRules] + initialBeads + [
        Key(table: "learner", name: "win_beads", value: .beads(\.michieCounts.win, range: 0...20),
            documentation: "Under Michie's rules, beads added to each move the learner drew, after a game it won."),
        Key(table: "learner", name: "draw_beads", value: .beads(\.michieCounts.draw, range: 0...20),
            documentation: "Under Michie's rules, beads added to each move the learner drew, after a drawn game."),
        Key(table: "learner", name: "loss_beads", value: .beads(\.michieCounts.loss, range: 0...20),
            documentation: "Under Michie's rules, beads taken from each move the learner drew (never below none), after a game it lost."),
    ]
    static let learnerDocumentation = "How the matchbox learner (players.opponent = \"learner\") counts its beads (docs/PLAYING.md). Its boxes are kept with the game; these change how it learns from now on, not what it has learnt."

    /// What the `[lights]` table's LED figures are for.
    static let ledsDocumentation = "The LEDs, from their datasheet (the defaults are a typical 5 mm red/green bi-colour part, Hardware/README.md). O is lit one frame in the fewest that give X \(written(DimCycle.margin)) times O's light to a normal, a protan and a deutan eye (docs/CONFIGURATION.md, \"Why O is dim\"); tictactoe selftest shows X's mark beside O's to check. The status LEDs are taken to match the matrix's dies."

    /// The file's sections in order; `chip` stands alone at the top.
    public static let tables: [Table] = [
        Table(name: "players", documentation: "Optional names for the logs and the terminal (\"Alice (X) vs Bob (O)\"); empty means just X and O.", keys: [
            Key(table: "players", name: "x", value: .name(\.x), documentation: "Player X (red, bright marks)."),
            Key(table: "players", name: "o", value: .name(\.o), documentation: "Player O (green, dim marks)."),
            opponent,
        ]),
        Table(name: "buttons", documentation: nil, keys: [
            Key(table: "buttons", name: "cells", value: .pins(.cellButtons),
                documentation: "The nine cell buttons in reading order: the top row left to right, then the middle and bottom rows."),
            Key(table: "buttons", name: "new_game", value: .pins(.newGameButton), documentation: "The new-game button."),
            Key(table: "buttons", name: "polarity", value: .polarity(\.buttonPolarity),
                documentation: "\"active-low\": each button switches its line to ground; the internal pull-up holds it high. \"active-high\": buttons switch to 3.3 V, with the internal pull-down."),
        ]),
        Table(name: "matrix", documentation: nil, keys: [
            Key(table: "matrix", name: "rows", value: .pins(.rows),
                documentation: "Rows top to bottom, each driving an NPN transistor that switches the row's common cathodes."),
            Key(table: "matrix", name: "row_polarity", value: .polarity(\.rowPolarity), documentation: "The level that lights a row."),
            Key(table: "matrix", name: "red_columns", value: .pins(.redColumns),
                documentation: "Red anode columns left to right, each through its resistor."),
            Key(table: "matrix", name: "green_columns", value: .pins(.greenColumns),
                documentation: "Green anode columns left to right, each through its resistor."),
            Key(table: "matrix", name: "column_polarity", value: .polarity(\.columnPolarity), documentation: "The level that lights a column."),
        ]),
        Table(name: "status", documentation: nil, keys: [
            Key(table: "status", name: "x", value: .pins(.xStatus), documentation: "The red LED on X's side, through its resistor."),
            Key(table: "status", name: "o", value: .pins(.oStatus), documentation: "The green LED on O's side, through its resistor."),
            Key(table: "status", name: "polarity", value: .polarity(\.statusPolarity), documentation: "The level that lights a status LED."),
        ]),
        Table(name: "timings", documentation: nil, keys: [debounce, kernelDebounce, hold, illegalFlash, blink, scanRow, idleSleep, computerThinking, otherBoardWait]),
        Table(name: "lights", documentation: ledsDocumentation, keys: [marks] + ledKeys),
        Table(name: "learner", documentation: learnerDocumentation, keys: learnerKeys),
        Table(
            name: WebSettings.table, documentation: WebSettings.tableDocumentation,
            keys: WebSettings.Key.allCases.map { Key(table: WebSettings.table, name: $0.name, value: .web($0), documentation: $0.documentation) }),
        Table(
            name: NetworkSettings.table, documentation: NetworkSettings.tableDocumentation,
            keys: NetworkSettings.Key.allCases.map { Key(table: NetworkSettings.table, name: $0.name, value: .network($0), documentation: $0.documentation) }),
    ]

    /// Every key, in file order.
    public static var keys: [Key] { [chip] + tables.flatMap(\.keys) }

    /// The key that sets the lines of `group`.
    public static func key(for group: PinGroup) -> Key {
        guard let key = keys.first(where: { if case .pins(group) = $0.value { true } else { false } }) else {
            fatalError("ConfigurationSchema: no key sets \(group)")
        }
        return key
    }
}

extension ConfigurationSchema.Key {
    /// Why `number` is out of this key's range, or nil when it is in it: "is 5000 µs; it must be
    /// between 50 and 3333 (…)". The caller puts the key's or the option's name before it.
    public func problem(with number: Int) -> String? {
        switch value {
        case .duration(_, let unit, let range, let why) where !range.contains(number):
            return "is \(number) \(unit.rawValue); it must be between \(range.lowerBound) and \(range.upperBound)\(why.map { " (\($0))" } ?? "")."
        case .beads(_, let range) where !range.contains(number):
            return "is \(number) beads; it must be between \(range.lowerBound) and \(range.upperBound)."
        default:
            return nil
        }
    }

    /// Why `number` is out of this figure's range, or nil when it is in it: "is 800 nm; it must
    /// be between 600 and 700.". The caller puts the key's name before it.
    public func problem(withFigure number: Double) -> String? {
        guard case .figure(_, let unit, let range) = value, !range.contains(number) else { return nil }
        let written = ConfigurationSchema.written
        return "is \(written(number)) \(unit); it must be between \(written(range.lowerBound)) and \(written(range.upperBound))."
    }

    /// The default as the file writes it, read from the defaults of the types the key sets.
    public var defaultText: String {
        let settings = BoardSettings()
        switch value {
        case .chip: return "\"auto\""
        case .name(let key): return "\"\(settings.players[keyPath: key] ?? "")\""
        case .pins(let group) where group.lineCount == 1: return settings.pins[group].map { "\($0.rawValue)" }.joined()
        case .pins(let group): return "[" + settings.pins[group].map { "\($0.rawValue)" }.joined(separator: ", ") + "]"
        case .polarity(let key): return "\"\(settings.pins[keyPath: key].rawValue)\""
        case .opponent(let key): return "\"\(settings[keyPath: key].name)\""
        case .duration(let key, let unit, _, _): return "\(unit.count(of: settings[keyPath: key]))"
        case .marks(let key): return "\"\(settings[keyPath: key].rawValue)\""
        case .figure(let key, _, _): return ConfigurationSchema.written(settings[keyPath: key])
        case .learnerRules(let key): return "\"\(settings[keyPath: key].rawValue)\""
        case .beads(let key, _): return "\(settings[keyPath: key])"
        case .web(let key): return key.defaultText
        case .network(let key): return key.defaultText
        }
    }

    /// What values the key takes, in a few words.
    public var allowed: String {
        switch value {
        case .chip: "\"auto\", or a path, name or label"
        case .name: "at most \(ConfigurationSchema.nameLength) characters, one line"
        case .pins(let group) where group.lineCount == 1: "a BCM line, GPIO2–27"
        case .pins: "BCM lines, GPIO2–27"
        case .polarity: Polarity.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        case .opponent: Opponent.allCases.map { "\"\($0.name)\"" }.joined(separator: ", ")
        case .duration(_, let unit, let range, let why): "\(range.lowerBound)–\(range.upperBound) \(unit.rawValue)" + (why.map { " (\($0))" } ?? "")
        case .marks: MarkStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        case .figure(_, let unit, let range):
            "\(ConfigurationSchema.written(range.lowerBound))–\(ConfigurationSchema.written(range.upperBound)) \(unit)"
        case .learnerRules: LearnerRules.Named.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        case .beads(_, let range): "\(range.lowerBound)–\(range.upperBound) beads"
        case .web(let key): key.allowed
        case .network(let key): key.allowed
        }
    }
}

extension ConfigurationSchema {
    /// A figure as the file and messages write it: a whole number without a point (625), a
    /// fraction as short as it reads back exactly (12.5).
    public static func written(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
    }

    /// Why `text` cannot be a player's name, or nil when it can (``PlayerNames/problem(with:)``).
    public static func nameProblem(_ text: String) -> String? { PlayerNames.problem(with: text) }
}
