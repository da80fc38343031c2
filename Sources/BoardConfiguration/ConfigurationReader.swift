import Appliance
import Devices
import GPIO
import Presentation

/// Walks a parsed configuration file key by key, checking each as it goes.
struct ConfigurationReader {
    let document: TOMLDocument
    let file: String

    static let schema: [String: [String]] = [
        "players": ["x", "o"],
        "buttons": ["cells", "new_game", "polarity"],
        "matrix": ["rows", "row_polarity", "red_columns", "green_columns", "column_polarity"],
        "status": ["x", "o", "polarity"],
        "timings": ["debounce_ms", "kernel_debounce_ms", "hold_ms", "illegal_flash_ms", "blink_ms", "scan_row_us", "idle_sleep_s"],
    ]
    static let topLevel = ["chip"] + schema.keys.sorted()

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
        let chip = try string("chip", in: nil) ?? "auto"
        guard chip.contains(where: { !$0.isWhitespace }) else {
            throw error("chip", "chip is empty; write \"auto\" for the Raspberry Pi header chip, or a path, name or label.")
        }
        configuration.chip = chip == "auto" ? nil : chip

        var settings = BoardSettings()
        settings.players = PlayerNames(x: try name("players", "x"), o: try name("players", "o"))
        settings.pins = try pins()
        settings.buttons.debounce = .milliseconds(try number("timings", "debounce_ms", default: 20, in: 1...200, unit: "ms"))
        settings.buttons.kernelDebounce = .milliseconds(try number("timings", "kernel_debounce_ms", default: 2, in: 0...200, unit: "ms"))
        settings.buttons.hold = .milliseconds(try number("timings", "hold_ms", default: 1500, in: 1...10_000, unit: "ms"))
        settings.game.illegalFlash = .milliseconds(try number("timings", "illegal_flash_ms", default: 400, in: 50...5000, unit: "ms"))
        settings.game.blinkHalfPeriod = .milliseconds(try number("timings", "blink_ms", default: 400, in: 50...5000, unit: "ms"))
        settings.scanRowPeriod = .microseconds(try number("timings", "scan_row_us", default: 500, in: 50...3333, unit: "µs",
            why: "three rows make a frame, and the matrix flickers below 100 frames a second"))
        settings.game.idleSleep = .seconds(try number("timings", "idle_sleep_s", default: 300, in: 10...86_400, unit: "s"))
        func ms(_ duration: Duration) -> String { "\(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000) ms" }
        if settings.buttons.hold <= settings.buttons.debounce {
            throw error("timings.hold_ms", "timings.hold_ms (\(ms(settings.buttons.hold))) must be longer than timings.debounce_ms (\(ms(settings.buttons.debounce))), or a hold could never be told from a press; the usual is 1500.")
        }
        if settings.buttons.kernelDebounce > settings.buttons.debounce {
            throw error("timings.kernel_debounce_ms", "timings.kernel_debounce_ms (\(ms(settings.buttons.kernelDebounce))) must not exceed timings.debounce_ms (\(ms(settings.buttons.debounce))); it delays every press, keep it small (2).")
        }
        configuration.settings = settings
        return configuration
    }

    // Unknown keys and tables, and values of the wrong shape at the top.
    private func checkKeys() throws(ConfigurationError) {
        for key in document.top.keys + document.tableNames {
            guard Self.topLevel.contains(key) else {
                throw error(key, "unknown key \(key); the configuration has \(Self.topLevel.joined(separator: ", ")). Remove it or fix its spelling.")
            }
            guard let allowed = Self.schema[key] else { continue }
            guard let section = document.tables[key] else {
                throw error(key, "\(key) must be a table, written as a [\(key)] section, not a single value.")
            }
            for inner in section.keys where !allowed.contains(inner) {
                throw error("\(key).\(inner)", "unknown key \(key).\(inner); [\(key)] has \(allowed.joined(separator: ", ")). Remove it or fix its spelling.")
            }
        }
    }

    private func value(_ table: String?, _ key: String) -> TOMLValue? {
        guard let table else { return document.top.entries[key]?.value }
        return document.tables[table]?.entries[key]?.value
    }

    private func path(_ table: String?, _ key: String) -> String { table.map { "\($0).\(key)" } ?? key }

    private func string(_ key: String, in table: String?) throws(ConfigurationError) -> String? {
        if table == nil, document.tables[key] != nil {
            throw error(key, "\(key) must be text in quotes, not a table.")
        }
        guard let value = value(table, key) else { return nil }
        guard case .string(let text) = value else {
            throw error(path(table, key), "\(path(table, key)) must be text in quotes, not \(value.described).")
        }
        return text
    }

    private func name(_ table: String, _ key: String) throws(ConfigurationError) -> String? {
        guard let text = try string(key, in: table) else { return nil }
        if text.count > 32 || text.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true }) {
            throw error(path(table, key), "\(path(table, key)) must be a name of at most 32 characters on one line.")
        }
        return text
    }

    private func number(
        _ table: String, _ key: String, default fallback: Int, in range: ClosedRange<Int>, unit: String, why: String? = nil
    ) throws(ConfigurationError) -> Int {
        guard let value = value(table, key) else { return fallback }
        guard case .integer(let number) = value else {
            throw error(path(table, key), "\(path(table, key)) must be a whole number of \(unit), not \(value.described).")
        }
        guard range.contains(number) else {
            let reason = why.map { " (\($0))" } ?? ""
            throw error(path(table, key), "\(path(table, key)) is \(number) \(unit); it must be between \(range.lowerBound) and \(range.upperBound)\(reason).")
        }
        return number
    }

    private func line(_ table: String, _ key: String) throws(ConfigurationError) -> LineOffset {
        guard let value = value(table, key) else {
            throw error(path(table, key), "\(path(table, key)) is missing; give the BCM number of its line (see Hardware/tictactoe.toml).")
        }
        return try offset(value, key: path(table, key))
    }

    private func lines(_ table: String, _ key: String) throws(ConfigurationError) -> [LineOffset] {
        guard let value = value(table, key) else {
            throw error(path(table, key), "\(path(table, key)) is missing; list the BCM numbers of its lines in brackets (see Hardware/tictactoe.toml).")
        }
        guard case .array(let array) = value else {
            throw error(path(table, key), "\(path(table, key)) must be a list of BCM numbers in brackets, such as [23, 24, 25], not \(value.described).")
        }
        var result: [LineOffset] = []
        for (index, item) in array.enumerated() {
            result.append(try offset(item, key: path(table, key), item: index + 1))
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

    private func polarity(_ table: String, _ key: String) throws(ConfigurationError) -> Polarity? {
        guard let text = try string(key, in: table) else { return nil }
        guard let polarity = Polarity(rawValue: text) else {
            throw error(path(table, key), "\(path(table, key)) is \"\(text)\"; it must be \"active-low\" or \"active-high\".")
        }
        return polarity
    }

    private func pins() throws(ConfigurationError) -> PinMap {
        var pins = PinMap(
            cellButtons: try lines("buttons", "cells"), newGameButton: try line("buttons", "new_game"),
            rows: try lines("matrix", "rows"), redColumns: try lines("matrix", "red_columns"),
            greenColumns: try lines("matrix", "green_columns"),
            xStatus: try line("status", "x"), oStatus: try line("status", "o"))
        if let polarity = try polarity("buttons", "polarity") { pins.buttonPolarity = polarity }
        if let polarity = try polarity("matrix", "row_polarity") { pins.rowPolarity = polarity }
        if let polarity = try polarity("matrix", "column_polarity") { pins.columnPolarity = polarity }
        if let polarity = try polarity("status", "polarity") { pins.statusPolarity = polarity }
        do {
            return try pins.validated()
        } catch {
            throw self.error(Self.key(of: error), error.description)
        }
    }

    private static func key(of error: PinMapError) -> String {
        switch error {
        case .wrongCount(let key, _, _), .reservedLine(let key, _, _), .notOnHeader(let key, _),
             .outputOnPulledUpLine(let key, _):
            key
        case .lineUsedTwice(_, _, let second):
            second
        }
    }
}
