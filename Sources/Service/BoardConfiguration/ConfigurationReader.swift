import Basics
import ConfigurationFile
import Devices
import GPIO
import Lights
import Matchboxes
import ViewModel
import TicTacToe
import WiredBoard

/// Walks a parsed configuration file key by key, checking each as it goes.
struct ConfigurationReader {
    let document: ConfigurationDocument

    static let topLevel = [ConfigurationSchema.chip.name] + ConfigurationSchema.tables.map(\.name).sorted()

    func error(_ key: String, _ message: String) -> ConfigurationError {
        document.error(key, message)
    }

    mutating func read() throws(ConfigurationError) -> Configuration {
        try checkKeys()
        var configuration = Configuration()
        // Every line is required, so each of the standard map's lines is replaced; its
        // polarities are the defaults.
        var pins = PinMap.standard
        for key in ConfigurationSchema.keys {
            try read(key, into: &configuration, pins: &pins)
        }
        configuration.settings.pins = try validated(pins)
        try checkTogether(configuration.settings.buttons)
        try checkTogether(configuration.settings)
        try chooseLearnerRules(&configuration.settings)
        configuration.network = try NetworkSettings(reading: document)
        return configuration
    }

    private func read(_ key: ConfigurationSchema.Key, into configuration: inout Configuration, pins: inout PinMap) throws(ConfigurationError) {
        switch key.value {
        case .chip:
            configuration.chip = try chip(key)
        case .pins(let group) where group.lineCount == 1:
            pins[group] = [try line(key)]
        case .pins(let group):
            pins[group] = try lines(key)
        case .polarity(let field):
            if let polarity = try polarity(key) { pins[keyPath: field] = polarity }
        case .name, .opponent, .duration, .marks, .figure, .learnerRules, .beads:
            try read(key, into: &configuration.settings)
        case .web(let web):
            // The web view's own reading: the board checks the table as the web view reads it.
            try web.read(from: document, into: &configuration.web)
        case .network:
            // The link's own reading, all keys at once (some go together), after the board's.
            break
        }
    }

    /// The keys that set the board's settings beyond its wiring.
    private func read(_ key: ConfigurationSchema.Key, into settings: inout BoardSettings) throws(ConfigurationError) {
        switch key.value {
        case .name(let field):
            guard let text = try string(key) else { return }
            if let problem = ConfigurationSchema.nameProblem(text) { throw error(key.path, "\(key.path) \(problem)") }
            settings.players[keyPath: field] = text.isEmpty ? nil : text
        case .opponent(let field):
            guard let text = try string(key) else { return }
            // Another board is chosen when both are up (docs/NETWORK.md), not by a file.
            guard let opponent = Opponent(name: text), opponent.remote == nil else {
                throw error(key.path, "\(key.path) is \(text.quoted()); it must be one of \(key.allowed).")
            }
            settings[keyPath: field] = opponent
        case .duration(let field, let unit, _, _):
            if let number = try wholeNumber(key, of: unit.rawValue) { settings[keyPath: field] = unit.duration(number) }
        case .marks(let field):
            guard let text = try string(key) else { return }
            guard let marks = MarkStyle(rawValue: text) else {
                throw error(key.path, "\(key.path) is \(text.quoted()); it must be \(key.allowed).")
            }
            settings[keyPath: field] = marks
        case .figure(let field, let unit, _):
            guard let value = value(key) else { return }
            let number: Double
            switch value {
            case .integer(let whole): number = Double(whole)
            case .float(let fraction) where fraction.isFinite: number = fraction
            default: throw error(key.path, "\(key.path) must be a number of \(unit) from the LED's datasheet, not \(value.described).")
            }
            if let problem = key.problem(withFigure: number) { throw error(key.path, "\(key.path) \(problem)") }
            settings[keyPath: field] = number
        case .learnerRules(let field):
            if let named = try namedRules(key) { settings[keyPath: field] = named }
        case .beads(let field, _):
            if let number = try wholeNumber(key, of: "beads") { settings[keyPath: field] = number }
        case .chip, .pins, .polarity, .web, .network:
            return
        }
    }

    /// The learner's rules the key names; nil when the file leaves it out.
    private func namedRules(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> LearnerRules.Named? {
        guard let text = try string(key) else { return nil }
        guard let named = LearnerRules.Named(rawValue: text) else {
            throw error(key.path, "\(key.path) is \(text.quoted()); it must be \(key.allowed).")
        }
        return named
    }

    /// The key's whole number of `unit`s, checked against its range; nil when the file leaves it out.
    private func wholeNumber(_ key: ConfigurationSchema.Key, of unit: String) throws(ConfigurationError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .integer(let number) = value else {
            throw error(key.path, "\(key.path) must be a whole number of \(unit), not \(value.described).")
        }
        if let problem = key.problem(with: number) { throw error(key.path, "\(key.path) \(problem)") }
        return number
    }

    /// The chip's name, nil for "auto" (and when the file leaves it out).
    private func chip(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> String? {
        let chip = try string(key) ?? "auto"
        guard chip.contains(where: { !$0.isWhitespace }) else {
            throw error(key.path, "chip is empty; write \"auto\" for the Raspberry Pi header chip, or a path, name or label.")
        }
        guard !chip.unicodeScalars.contains(where: \.isInvisible) else {
            throw error(key.path, "chip is \(chip.quoted()), with control characters; write \"auto\", or a path, name or label.")
        }
        return chip == "auto" ? nil : chip
    }

    /// The scan's limit with dim marks: each LED must still be refreshed often enough, and how
    /// dim O must be comes from the LEDs.
    private func checkTogether(_ settings: BoardSettings) throws(ConfigurationError) {
        guard settings.scanRowPeriod > settings.longestScanRow else { return }
        let scanRow = ConfigurationSchema.scanRow, marks = ConfigurationSchema.marks
        let us = ConfigurationSchema.TimeUnit.microseconds, cycle = settings.dimCycle
        let intensities = LEDPart.Die.allCases.map { ConfigurationSchema.intensity($0).path }.joined(separator: " and ")
        let why = "\(scanRow.path) (\(us.count(of: settings.scanRowPeriod)) µs) refreshes O's dim marks only \(Int(settings.slowestRefreshRate)) times a second, and they flicker below \(BoardSettings.minimumFrameRate): with these LEDs O must be lit one frame in \(cycle.frames) for X's light to be \(ConfigurationSchema.written(DimCycle.margin)) times O's to every eye (a \(DimCycle.hardestEye(with: settings.leds)) eye needs the most)."
        let otherwise = "LEDs whose red is brighter beside their green (\(intensities), as their datasheet rates them), or \(marks.path) = \"\(MarkStyle.colour.rawValue)\"."
        guard case .duration(_, _, let range, _) = scanRow.value, us.count(of: settings.longestScanRow) >= range.lowerBound else {
            throw error(scanRow.path, "\(why) Not even the shortest \(scanRow.path) is short enough for that: use \(otherwise)")
        }
        throw error(scanRow.path, "\(why) Use \(scanRow.path) of at most \(us.count(of: settings.longestScanRow)) µs, \(otherwise)")
    }

    /// The learner's rules when the file sets a count of Michie's: left out, they are his (a file
    /// of release 0.5, which had no `rules`, keeps the counts it changed); named quick, the
    /// counts would do nothing, so the file is refused rather than read otherwise than it says.
    private func chooseLearnerRules(_ settings: inout BoardSettings) throws(ConfigurationError) {
        guard settings.michieCounts != LearnerRules.michie else { return }
        let rules = ConfigurationSchema.learnerRules
        guard value(rules) != nil else {
            settings.learnerRules = .michie
            return
        }
        guard settings.learnerRules == .quick else { return }
        // Every count changed at once, each with his, so that one edit mends the file.
        let defaults = BoardSettings()
        let changed = ConfigurationSchema.learnerKeys.compactMap { key -> (path: String, his: Int)? in
            guard case .beads(let field, _) = key.value, settings[keyPath: field] != defaults[keyPath: field] else { return nil }
            return (key.path, defaults[keyPath: field])
        }
        let named = changed.map { "\($0.path) (his: \($0.his))" }.joined(separator: ", ")
        throw error(changed.first?.path ?? rules.path, "\(named) \(changed.count == 1 ? "changes a count" : "change counts") of Michie's rules, but \(rules.path) is \"quick\", whose counts are its own: write \(rules.path) = \"michie\" to play by yours, or set \(changed.count == 1 ? "it" : "them") back to his.")
    }

    /// The limits one key alone cannot say.
    private func checkTogether(_ buttons: ButtonTimings) throws(ConfigurationError) {
        let debounce = ConfigurationSchema.debounce, hold = ConfigurationSchema.hold, kernel = ConfigurationSchema.kernelDebounce
        func ms(_ duration: Duration) -> String { "\(ConfigurationSchema.TimeUnit.milliseconds.count(of: duration)) ms" }
        if buttons.hold <= buttons.debounce {
            throw error(hold.path, "\(hold.path) (\(ms(buttons.hold))) must be longer than \(debounce.path) (\(ms(buttons.debounce))), or a hold could never be told from a press; the usual is \(hold.defaultText).")
        }
        if buttons.kernelDebounce > buttons.debounce {
            throw error(kernel.path, "\(kernel.path) (\(ms(buttons.kernelDebounce))) must not exceed \(debounce.path) (\(ms(buttons.debounce))); it delays every press, keep it small (\(kernel.defaultText)).")
        }
    }

    // Unknown keys and tables, and values of the wrong shape at the top.
    private func checkKeys() throws(ConfigurationError) {
        for key in document.toml.top.keys + document.toml.tableNames {
            guard Self.topLevel.contains(key) else {
                throw error(key, "unknown key \(key.shown()); the configuration has \(Self.topLevel.joined(separator: ", ")). Remove it or fix its spelling.")
            }
            guard let table = ConfigurationSchema.tables.first(where: { $0.name == key }) else { continue }
            try document.checkTable(key, keys: table.keys.map(\.name))
        }
    }

    private func value(_ key: ConfigurationSchema.Key) -> TOMLValue? {
        document.value(table: key.table, key: key.name)
    }

    private func string(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> String? {
        try document.text(table: key.table, key: key.name)
    }

    private func line(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> LineOffset {
        guard let value = value(key) else {
            throw error(key.path, "\(key.path) is missing; give the BCM number of its line (see \(InstalledConfiguration.projectCopy)).")
        }
        return try offset(value, key: key.path)
    }

    private func lines(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> [LineOffset] {
        guard let value = value(key) else {
            throw error(key.path, "\(key.path) is missing; list the BCM numbers of its lines in brackets (see \(InstalledConfiguration.projectCopy)).")
        }
        guard case .array(let array) = value else {
            throw error(key.path, "\(key.path) must be a list of BCM numbers in brackets, such as [23, 24, 25], not \(value.described).")
        }
        var result: [LineOffset] = []
        for (index, item) in array.enumerated() {
            result.append(try offset(item, key: key.path, item: index + 1))
        }
        return result
    }

    private func offset(_ value: TOMLValue, key: String, item: Int? = nil) throws(ConfigurationError) -> LineOffset {
        let what = item.map { "\(key) item \($0)" } ?? key
        guard case .integer(let number) = value else {
            throw error(key, "\(what) must be a BCM line number such as 17, not \(value.described).")
        }
        guard (0...63).contains(number) else {
            throw error(key, "\(what) is \(number), which is not a GPIO line; use a BCM number in 2–27.")
        }
        return LineOffset(UInt32(number))
    }

    private func polarity(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> Polarity? {
        guard let text = try string(key) else { return nil }
        guard let polarity = Polarity(rawValue: text) else {
            throw error(key.path, "\(key.path) is \(text.quoted()); it must be \(key.allowed).")
        }
        return polarity
    }

    private func validated(_ pins: PinMap) throws(ConfigurationError) -> PinMap {
        do {
            return try pins.validated()
        } catch {
            throw self.error(ConfigurationSchema.key(for: error.group).path, error.message(naming: { ConfigurationSchema.key(for: $0).path }))
        }
    }
}
