import ConfigurationFile
import Devices
import Foundation
import GPIO
import Matchboxes
import Testing
import WiredBoard
@testable import BoardConfiguration
import TestSupport

/// The default configuration, read from the repository: the one pin map.
private let defaultText: String = {
    let file = repositoryRoot
        .appendingPathComponent("Hardware/tictactoe.toml")
    return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
}()

/// The default file with one line replaced: `old` must occur exactly once.
private func edited(_ old: String, _ new: String) -> String {
    precondition(defaultText.components(separatedBy: old).count == 2, "test edit must match once: \(old)")
    return defaultText.replacingOccurrences(of: old, with: new)
}

/// The default file with the section `[name]` (up to the next section) replaced by `text`.
private func replacingSection(_ name: String, with text: String) -> String {
    guard let start = defaultText.range(of: "[\(name)]\n"),
          let end = defaultText.range(of: "\n[", range: start.upperBound..<defaultText.endIndex) else { return "" }
    return String(defaultText[..<start.lowerBound]) + text + String(defaultText[end.lowerBound...])
}

private func line(of text: String, containing needle: String) -> Int {
    (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) } ?? -1) + 1
}

struct BadFile: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    /// Where the error must point: the line containing this text.
    let at: String
    let message: String
    var testDescription: String { name }
}

private let badFiles: [BadFile] = [
    BadFile(name: "TOML syntax", text: edited("new_game = 3", "new_game = = 3"), at: "new_game = = 3",
            message: "not valid TOML at column 12: expected a value after '=', found '='. Fix the syntax (compare with Hardware/tictactoe.toml)."),
    BadFile(name: "a NUL byte", text: edited("new_game = 3", "new_game = 3\u{0}"), at: "new_game = 3\u{0}",
            message: "not valid TOML at column 13: expected the end of the line, found the control character U+0000. Fix the syntax (compare with Hardware/tictactoe.toml)."),
    BadFile(name: "a key given twice", text: edited("o = 18", "o = 18\no = 19"), at: "o = 19",
            message: "not valid TOML at column 1: status.o is given twice (first on line \(line(of: defaultText, containing: "o = 18"))); keep one. Fix the syntax (compare with Hardware/tictactoe.toml)."),
    BadFile(name: "chip as a section", text: edited("chip = \"auto\"", "[chip]\npath = \"/dev/gpiochip0\""), at: "[chip]",
            message: "chip must be text in quotes, not a table."),
    BadFile(name: "unknown top-level key", text: edited("chip = \"auto\"", "chip = \"auto\"\nchips = 2"), at: "chips = 2",
            message: "unknown key chips; the configuration has chip, buttons, learner, lights, matrix, network, players, status, timings, web. Remove it or fix its spelling."),
    BadFile(name: "unknown key in a table", text: edited("new_game = 3", "newgame = 3"), at: "newgame = 3",
            message: "unknown key buttons.newgame; [buttons] has cells, new_game, polarity. Remove it or fix its spelling."),
    BadFile(name: "table given as a value", text: replacingSection("players", with: "players = \"Alice\"\n"), at: "players = \"Alice\"",
            message: "players must be a table, written as a [players] section, not a single value."),
    BadFile(name: "missing line", text: edited("new_game = 3\n", ""), at: "[buttons]",
            message: "buttons.new_game is missing; give the BCM number of its line (see Hardware/tictactoe.toml)."),
    BadFile(name: "text for a line", text: edited("new_game = 3", "new_game = \"3\""), at: "new_game = \"3\"",
            message: "buttons.new_game must be a BCM line number such as 17, not text (\"3\")."),
    BadFile(name: "a number for a list", text: edited("rows = [23, 24, 25]", "rows = 23"), at: "rows = 23",
            message: "matrix.rows must be a list of BCM numbers in brackets, such as [23, 24, 25], not a number (23)."),
    BadFile(name: "text in a list", text: edited("rows = [23, 24, 25]", "rows = [23, \"24\", 25]"), at: "rows = [23,",
            message: "matrix.rows item 2 must be a BCM line number such as 17, not text (\"24\")."),
    BadFile(name: "too few cells", text: edited("cells = [4, 17, 27, 22, 5, 6, 13, 19, 26]", "cells = [4, 17, 27, 22, 5, 6, 13, 19]"), at: "cells = [",
            message: "buttons.cells lists 8 lines; it needs exactly 9."),
    BadFile(name: "too many columns", text: edited("red_columns = [9, 10, 11]", "red_columns = [9, 10, 11, 7]"), at: "red_columns",
            message: "matrix.red_columns lists 4 lines; it needs exactly 3."),
    BadFile(name: "a line used twice", text: edited("o = 18", "o = 12"), at: "o = 12",
            message: "GPIO12 is used twice, by status.x and by status.o; give each its own line."),
    BadFile(name: "serial console line", text: edited("new_game = 3", "new_game = 14"), at: "new_game = 14",
            message: "buttons.new_game uses GPIO14, but it is the serial console (TXD); choose another line in GPIO2–27."),
    BadFile(name: "HAT EEPROM line", text: edited("rows = [23, 24, 25]", "rows = [23, 24, 1]"), at: "rows = [23, 24, 1]",
            message: "matrix.rows uses GPIO1, but it is the HAT EEPROM bus (ID_SC); choose another line in GPIO2–27."),
    BadFile(name: "LED on a pulled-up line", text: edited("x = 12", "x = 2"), at: "x = 2",
            message: "status.x uses GPIO2, which has a fixed pull-up resistor and cannot drive an LED properly; use it for a button and move the LED to another line."),
    BadFile(name: "line off the header", text: edited("o = 18", "o = 40"), at: "o = 40",
            message: "status.o uses GPIO40, which is not on the 40-pin header; use GPIO2–27."),
    BadFile(name: "negative line", text: edited("o = 18", "o = -5"), at: "o = -5",
            message: "status.o is -5, which is not a GPIO line; use a BCM number in 2–27."),
    BadFile(name: "unknown polarity", text: edited("polarity = \"active-low\"", "polarity = \"active-lo\""), at: "polarity = \"active-lo\"",
            message: "buttons.polarity is \"active-lo\"; it must be \"active-high\" or \"active-low\"."),
    BadFile(name: "chip as a number", text: edited("chip = \"auto\"", "chip = 0"), at: "chip = 0",
            message: "chip must be text in quotes, not a number (0)."),
    BadFile(name: "empty chip", text: edited("chip = \"auto\"", "chip = \"\""), at: "chip = \"\"",
            message: "chip is empty; write \"auto\" for the Raspberry Pi header chip, or a path, name or label."),
    BadFile(name: "player name too long", text: edited("x = \"\"", "x = \"\(String(repeating: "A", count: 40))\""), at: "x = \"AAAA",
            message: "players.x must be a name of at most 32 characters (128 bytes) on one line, without control characters."),
    BadFile(name: "debounce of zero", text: edited("debounce_ms = 20", "debounce_ms = 0"), at: "debounce_ms = 0",
            message: "timings.debounce_ms is 0 ms; it must be between 1 and 200."),
    BadFile(name: "decimal timing", text: edited("hold_ms = 1500", "hold_ms = 1.5"), at: "hold_ms = 1.5",
            message: "timings.hold_ms must be a whole number of ms, not a decimal number (1.5)."),
    BadFile(name: "hold shorter than debounce", text: edited("hold_ms = 1500", "hold_ms = 10"), at: "hold_ms = 10",
            message: "timings.hold_ms (10 ms) must be longer than timings.debounce_ms (20 ms), or a hold could never be told from a press; the usual is 1500."),
    BadFile(name: "scan too slow to look steady", text: edited("scan_row_us = 500", "scan_row_us = 5000"), at: "scan_row_us = 5000",
            message: "timings.scan_row_us is 5000 µs; it must be between 50 and 3333 (three rows make a frame, and the matrix flickers below 100 frames a second)."),
    BadFile(name: "kernel debounce longer than debounce", text: edited("kernel_debounce_ms = 2", "kernel_debounce_ms = 50"), at: "kernel_debounce_ms = 50",
            message: "timings.kernel_debounce_ms (50 ms) must not exceed timings.debounce_ms (20 ms); it delays every press, keep it small (2)."),
    BadFile(name: "idle sleep too short", text: edited("idle_sleep_s = 300", "idle_sleep_s = 1"), at: "idle_sleep_s = 1",
            message: "timings.idle_sleep_s is 1 s; it must be between 10 and 86400."),
    BadFile(name: "unknown marks", text: edited("marks = \"colour-and-brightness\"", "marks = \"brightness\""), at: "marks = \"brightness\"",
            message: "lights.marks is \"brightness\"; it must be \"colour\" or \"colour-and-brightness\"."),
    BadFile(name: "scan too slow for dim marks", text: edited("scan_row_us = 500", "scan_row_us = 1000"), at: "scan_row_us = 1000",
            message: "timings.scan_row_us (1000 µs) refreshes O's dim marks only 55 times a second, and they flicker below 100: with these LEDs O must be lit one frame in 6 for X's light to be 3 times O's to every eye (a protan eye needs the most). Use timings.scan_row_us of at most 555 µs, LEDs whose red is brighter beside their green (lights.red_intensity_mcd and lights.green_intensity_mcd, as their datasheet rates them), or lights.marks = \"colour\"."),
    BadFile(name: "LEDs whose green is ten times their red's: a cycle the scan cannot refresh",
            text: edited("green_intensity_mcd = 20", "green_intensity_mcd = 400"), at: "scan_row_us = 500",
            message: "timings.scan_row_us (500 µs) refreshes O's dim marks only 6 times a second, and they flicker below 100: with these LEDs O must be lit one frame in 106 for X's light to be 3 times O's to every eye (a protan eye needs the most). Not even the shortest timings.scan_row_us is short enough for that: use LEDs whose red is brighter beside their green (lights.red_intensity_mcd and lights.green_intensity_mcd, as their datasheet rates them), or lights.marks = \"colour\"."),
    BadFile(name: "a red die's wavelength out of range", text: edited("red_wavelength_nm = 625", "red_wavelength_nm = 590"), at: "red_wavelength_nm = 590",
            message: "lights.red_wavelength_nm is 590 nm; it must be between 600 and 700."),
    BadFile(name: "an intensity as text", text: edited("green_intensity_mcd = 20", "green_intensity_mcd = \"20 mcd\""), at: "green_intensity_mcd = \"20",
            message: "lights.green_intensity_mcd must be a number of mcd from the LED's datasheet, not text (\"20 mcd\")."),
    BadFile(name: "an intensity of nothing", text: edited("red_intensity_mcd = 40", "red_intensity_mcd = 0.5"), at: "red_intensity_mcd = 0.5",
            message: "lights.red_intensity_mcd is 0.5 mcd; it must be between 1 and 100000."),
    BadFile(name: "learner rules by no name", text: edited("[learner]\n", "[learner]\nrules = \"menace\"\n"), at: "rules = \"menace\"",
            message: "learner.rules is \"menace\"; it must be \"quick\" or \"michie\"."),
    BadFile(name: "a bead count out of range", text: edited("loss_beads = 1", "loss_beads = 21"), at: "loss_beads = 21",
            message: "learner.loss_beads is 21 beads; it must be between 0 and 20."),
    BadFile(name: "counts of Michie's with the quick rules", text: edited("[learner]\n", "[learner]\nrules = \"quick\"\n").replacingOccurrences(of: "win_beads = 3", with: "win_beads = 4")
                .replacingOccurrences(of: "loss_beads = 1", with: "loss_beads = 7"),
            at: "win_beads = 4",
            message: "learner.win_beads (his: 3), learner.loss_beads (his: 1) change counts of Michie's rules, but learner.rules is \"quick\", whose counts are its own: write learner.rules = \"michie\" to play by yours, or set them back to his."),
    BadFile(name: "a count of Michie's with the quick rules", text: edited("[learner]\n", "[learner]\nrules = \"quick\"\n").replacingOccurrences(of: "draw_beads = 1", with: "draw_beads = 2"),
            at: "draw_beads = 2",
            message: "learner.draw_beads (his: 1) changes a count of Michie's rules, but learner.rules is \"quick\", whose counts are its own: write learner.rules = \"michie\" to play by yours, or set it back to his."),
    BadFile(name: "a wavelength not a number", text: edited("green_wavelength_nm = 570", "green_wavelength_nm = nan"), at: "green_wavelength_nm = nan",
            message: "lights.green_wavelength_nm must be a number of nm from the LED's datasheet, not a decimal number (nan)."),
]

@Suite("Configuration file")
struct ConfigurationTests {
    @Test("the default file is the standard pin map with the default timings")
    func defaultFile() throws {
        #expect(!defaultText.isEmpty)
        let configuration = try Configuration.parse(defaultText, file: "tictactoe.toml")
        #expect(configuration.chip == nil)
        #expect(configuration.settings == BoardSettings())
        #expect(configuration.settings.pins == PinMap.standard)
    }

    @Test("every key can be set", arguments: [true])
    func everyKey(_: Bool) throws {
        let text = edited("x = \"\"", "x = \"Alice\"")
            .replacingOccurrences(of: "chip = \"auto\"", with: "chip = \"pinctrl-rp1\"")
            .replacingOccurrences(of: "polarity = \"active-low\"", with: "polarity = \"active-high\"")
            .replacingOccurrences(of: "idle_sleep_s = 300", with: "idle_sleep_s = 60")
            .replacingOccurrences(of: "scan_row_us = 500", with: "scan_row_us = 250")
        let configuration = try Configuration.parse(text, file: "t.toml")
        #expect(configuration.chip == "pinctrl-rp1")
        #expect(configuration.settings.players.x == "Alice")
        #expect(configuration.settings.pins.buttonPolarity == .activeHigh)
        #expect(configuration.settings.game.idleSleep == .seconds(60))
        #expect(configuration.settings.scanRowPeriod == .microseconds(250))
    }

    @Test("the learner's rules: quick unless named michie, or unless a file without rules changes a count of Michie's (a file of 0.5); Michie's counts are the bead keys'")
    func learnerRules() throws {
        // The file the package installs is the previous release's: Michie's counts, no rules.
        #expect(try Configuration.parse(defaultText, file: "t.toml").settings.learner == .quick)
        let named = try Configuration.parse(edited("[learner]\n", "[learner]\nrules = \"michie\"\n"), file: "t.toml")
        #expect(named.settings.learner == .michie)
        // His own counts, written out in the file, beside quick: accepted.
        let quick = try Configuration.parse(edited("[learner]\n", "[learner]\nrules = \"quick\"\n"), file: "t.toml")
        #expect(quick.settings.learner == .quick)
        // A count changed in a file of 0.5: Michie's rules with it.
        let changed = try Configuration.parse(edited("loss_beads = 1", "loss_beads = 7").replacingOccurrences(of: "first_move_beads = 4", with: "first_move_beads = 9"), file: "t.toml")
        var expected = LearnerRules.michie
        expected.initialBeads[0] = 9
        expected.loss = 7
        #expect(changed.settings.learnerRules == .michie && changed.settings.learner == expected)
        // No learner table at all: the quick rules.
        #expect(try Configuration.parse(replacingSection("learner", with: ""), file: "t.toml").settings.learner == .quick)
    }

    @Test("a bad file is refused with its line, the key and what to do", arguments: badFiles)
    func badFile(_ bad: BadFile) {
        #expect(throws: ConfigurationError(
            file: "tictactoe.toml", line: line(of: bad.text, containing: bad.at),
            key: ConfigurationTests.key(of: bad.message), message: bad.message)
        ) {
            try Configuration.parse(bad.text, file: "tictactoe.toml")
        }
    }

    @Test("there are at least twenty bad files in the table")
    func coverage() { #expect(badFiles.count >= 20) }

    @Test("a missing file says how to get one")
    func missingFile() {
        #expect {
            try Configuration.load(file: "/nonexistent/tictactoe.toml")
        } throws: { error in
            (error as? ConfigurationError)?.description.hasPrefix("/nonexistent/tictactoe.toml: cannot read the file") == true
        }
    }

    /// The key a message is about (its first word that names a key), for building the expected error.
    static func key(of message: String) -> String {
        let words = message.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "," }).map(String.init)
        if message.hasPrefix("not valid TOML") { return "" }
        if message.hasPrefix("unknown key ") { return words[2] }
        if message.hasPrefix("GPIO"), let index = words.firstIndex(of: "and") { return words[index + 2] }
        return words[0]
    }
}
