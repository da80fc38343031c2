import Basics
import Devices
import GPIO
import Lights
import Presentation
import TicTacToe
import WiredBoard

/// Walks a parsed configuration file key by key, checking each as it goes.
struct ConfigurationReader {
    let document: TOMLDocument
    let file: String

    static let topLevel = [ConfigurationSchema.chip.name] + ConfigurationSchema.tables.map(\.name).sorted()

    func error(_ key: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line(of: key), key: key, message: message)
    }

    /// The line of `path` (`table.key` or `key`), else of its table, else nil.
    private func line(of path: String) -> Int? {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2, let table = document.tables[parts[0]] {
            return table.entries[parts[1]]?.line ?? table.line
        }
        return document.top.entries[path]?.line ?? document.tables[path]?.line
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
        return configuration
    }

    private func read(_ key: ConfigurationSchema.Key, into configuration: inout Configuration, pins: inout PinMap) throws(ConfigurationError) {
        switch key.value {
        case .chip:
            let chip = try string(key) ?? "auto"
            guard chip.contains(where: { !$0.isWhitespace }) else {
                throw error(key.path, "chip is empty; write \"auto\" for the Raspberry Pi header chip, or a path, name or label.")
            }
            guard !chip.unicodeScalars.contains(where: \.isInvisible) else {
                throw error(key.path, "chip is \(chip.quoted()), with control characters; write \"auto\", or a path, name or label.")
            }
            configuration.chip = chip == "auto" ? nil : chip
        case .name(let field):
            guard let text = try string(key) else { return }
            if let problem = ConfigurationSchema.nameProblem(text) { throw error(key.path, "\(key.path) \(problem)") }
            configuration.settings.players[keyPath: field] = text.isEmpty ? nil : text
        case .pins(let group) where group.lineCount == 1:
            pins[group] = [try line(key)]
        case .pins(let group):
            pins[group] = try lines(key)
        case .polarity(let field):
            if let polarity = try polarity(key) { pins[keyPath: field] = polarity }
        case .opponent(let field):
            guard let text = try string(key) else { return }
            guard let opponent = Opponent(name: text) else {
                throw error(key.path, "\(key.path) is \(text.quoted()); it must be one of \(key.allowed).")
            }
            configuration.settings[keyPath: field] = opponent
        case .duration(let field, let unit, _, _):
            guard let value = value(key) else { return }
            guard case .integer(let number) = value else {
                throw error(key.path, "\(key.path) must be a whole number of \(unit.rawValue), not \(value.described).")
            }
            if let problem = key.problem(with: number) { throw error(key.path, "\(key.path) \(problem)") }
            configuration.settings[keyPath: field] = unit.duration(number)
        case .listen(let field):
            guard let text = try string(key) else { return }
            guard let address = ListenAddress(parsing: text), address.port > 0 else {
                throw error(key.path, "\(key.path) is \(text.quoted()); it must be \(ListenAddress.form), with a port 1–65535.")
            }
            configuration.web[keyPath: field] = address
        case .marks(let field):
            guard let text = try string(key) else { return }
            guard let marks = MarkStyle(rawValue: text) else {
                throw error(key.path, "\(key.path) is \(text.quoted()); it must be \(key.allowed).")
            }
            configuration.settings[keyPath: field] = marks
        case .access(let field):
            guard let text = try string(key) else { return }
            guard let access = WebAccess(rawValue: text) else {
                throw error(key.path, "\(key.path) is \(text.quoted()); it must be \(key.allowed).")
            }
            configuration.web[keyPath: field] = access
        case .hosts(let field):
            guard let value = value(key) else { return }
            guard case .array(let items) = value else {
                throw error(key.path, "\(key.path) must be a list of host names in brackets, such as [\"board.home.arpa\"], not \(value.described).")
            }
            var names: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let name) = item, ListenAddress.isHostName(name) else {
                    throw error(key.path, "\(key.path) item \(index + 1) must be a host name or address in quotes (letters, digits, dots, hyphens), not \(item.described).")
                }
                names.append(name)
            }
            configuration.web[keyPath: field] = names
        }
    }

    /// The scan's limit with dim marks: each LED must still be refreshed often enough.
    private func checkTogether(_ settings: BoardSettings) throws(ConfigurationError) {
        guard settings.scanRowPeriod > settings.longestScanRow else { return }
        let scanRow = ConfigurationSchema.scanRow, marks = ConfigurationSchema.marks
        let us = ConfigurationSchema.TimeUnit.microseconds
        throw error(scanRow.path, "\(scanRow.path) (\(us.count(of: settings.scanRowPeriod)) µs) lights O's dim marks only \(Int(settings.slowestRefreshRate)) times a second with \(marks.path) = \"\(settings.marks.rawValue)\" (one frame in \(Brightness.dimFrames)), and they flicker below \(BoardSettings.minimumFrameRate). Use at most \(us.count(of: settings.longestScanRow)) µs, or \(marks.path) = \"\(MarkStyle.colour.rawValue)\".")
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
        for key in document.top.keys + document.tableNames {
            guard Self.topLevel.contains(key) else {
                throw error(key, "unknown key \(key.shown()); the configuration has \(Self.topLevel.joined(separator: ", ")). Remove it or fix its spelling.")
            }
            guard let table = ConfigurationSchema.tables.first(where: { $0.name == key }) else { continue }
            guard let section = document.tables[key] else {
                throw error(key, "\(key) must be a table, written as a [\(key)] section, not a single value.")
            }
            let allowed = table.keys.map(\.name)
            for inner in section.keys where !allowed.contains(inner) {
                throw error("\(key).\(inner)", "unknown key \(key).\(inner.shown()); [\(key)] has \(allowed.joined(separator: ", ")). Remove it or fix its spelling.")
            }
        }
    }

    private func value(_ key: ConfigurationSchema.Key) -> TOMLValue? {
        guard let table = key.table else { return document.top.entries[key.name]?.value }
        return document.tables[table]?.entries[key.name]?.value
    }

    private func string(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> String? {
        if key.table == nil, document.tables[key.name] != nil {
            throw error(key.path, "\(key.path) must be text in quotes, not a table.")
        }
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw error(key.path, "\(key.path) must be text in quotes, not \(value.described).")
        }
        return text
    }

    private func line(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> LineOffset {
        guard let value = value(key) else {
            throw error(key.path, "\(key.path) is missing; give the BCM number of its line (see Hardware/tictactoe.toml).")
        }
        return try offset(value, key: key.path)
    }

    private func lines(_ key: ConfigurationSchema.Key) throws(ConfigurationError) -> [LineOffset] {
        guard let value = value(key) else {
            throw error(key.path, "\(key.path) is missing; list the BCM numbers of its lines in brackets (see Hardware/tictactoe.toml).")
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
