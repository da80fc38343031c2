import ConfigurationFile
#if canImport(Glibc)
import Glibc
#endif
import Lights
import WiredBoard

/// The two documents written from the schema: the default file and the reference table in docs/CONFIGURATION.md.
extension ConfigurationSchema {
    /// Every key at its default, each with its documentation as a comment: `tictactoe check-config
    /// --print-default`. The file the package installs (`Hardware/tictactoe.toml`) is the one the
    /// previous release installed, so that dpkg never asks about an edited copy; it lacks the keys
    /// added since and reads as the same defaults, which a test holds.
    public static var defaultFile: String {
        var lines = [
            "# tictactoe-gpio configuration: the board's wiring, timings and player names.",
            "#",
            "# Every key at its default, written from the program's schema (`tictactoe check-config",
            "# --print-default`); the service reads \(InstalledConfiguration.path), and `tictactoe check-config",
            "# FILE` checks an edited copy. Line numbers are BCM numbers (GPIO17 is 17) on the 40-pin header:",
            "# use GPIO2–27, never GPIO0/1 (HAT EEPROM) or GPIO14/15 (serial console), and no LED on GPIO2/3",
            "# (fixed pull-ups).",
            "",
        ]
        lines += entry(chip)
        for table in tables {
            lines += ["", "[\(table.name)]"]
            if let documentation = table.documentation { lines += comment(documentation) }
            for key in table.keys { lines += entry(key) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The configuration reference in docs/CONFIGURATION.md: one row per key.
    public static var referenceTable: String {
        var rows = ["| key | default | allowed | meaning |", "| --- | --- | --- | --- |"]
        for key in keys {
            rows.append("| `\(key.path)` | `\(key.defaultText)` | \(key.allowed) | \(key.documentation) |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    private static func entry(_ key: Key) -> [String] {
        var text = key.documentation
        switch key.value {
        case .duration, .name, .beads: text += " Allowed: \(key.allowed)."
        case .opponent, .marks, .figure, .learnerRules: text += " Allowed: \(key.allowed)."
        case .web(let web) where web.commentNamesAllowed: text += " Allowed: \(key.allowed)."
        case .network: text += " Allowed: \(key.allowed)."
        case .chip, .pins, .polarity, .web: break
        }
        return comment(text) + ["\(key.name) = \(key.defaultText)"]
    }

    /// `text` as `# ` lines of at most 100 characters, broken between words.
    private static func comment(_ text: String) -> [String] {
        var lines: [String] = []
        var current = "#"
        for word in text.split(separator: " ") {
            if current.count + 1 + word.count > 100, current != "#" {
                lines.append(current)
                current = "#"
            }
            current += " " + word
        }
        return lines + [current]
    }
}

extension ConfigurationSchema {
    /// docs/CONFIGURATION.md's table of the dim cue at the default LEDs: for each eye, X's light
    /// over O's (the red die full, the green one lit one frame of the dim cycle), and how many
    /// times as bright that looks, between the cube root and the square root of the light.
    public static var dimCueTable: String {
        let settings = BoardSettings(), cycle = settings.dimCycle
        var rows = [
            "| eye | X : O in light (O lit \(cycle)) | X looks (∛ to √ of the light) |",
            "| --- | --- | --- |",
        ]
        for eye in Eye.allCases {
            let contrast = cycle.contrast(for: eye, with: settings.leds)
            rows.append("| \(eye) | \(oneDecimal(contrast)) : 1 | \(oneDecimal(cbrt(contrast))) to \(oneDecimal(contrast.squareRoot())) times as bright |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// `number` to one decimal place, as the documents write ratios.
    private static func oneDecimal(_ number: Double) -> String {
        let tenths = Int((number * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
