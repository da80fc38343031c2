/// Text from outside (a script, a name, a configuration) shown to a person: what cannot be
/// shown safely is spelt as code points, so that escape sequences never reach a terminal raw.
extension Unicode.Scalar {
    /// "U+001B".
    public var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Whether the scalar does something to a terminal or shows nothing: controls (escape, bell,
    /// carriage return), format characters (bidirectional overrides), separators, unassigned.
    public var isInvisible: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: true
        default: false
        }
    }
}

extension Character {
    /// `'x'` when printable, else its code points: `U+001B`.
    public var shown: String {
        guard unicodeScalars.contains(where: \.isInvisible) else { return "'\(self)'" }
        return unicodeScalars.map(\.codePoint).joined(separator: " ")
    }
}

extension String {
    /// The text with every invisible scalar (``Unicode/Scalar/isInvisible``) but those in
    /// `kept` spelt as its code point: "\u{1B}[2J" becomes "U+001B[2J".
    public func spellingInvisibles(except kept: Set<Unicode.Scalar> = []) -> String {
        var spelt = ""
        for scalar in unicodeScalars {
            if scalar.isInvisible && !kept.contains(scalar) { spelt += scalar.codePoint } else { spelt.unicodeScalars.append(scalar) }
        }
        return spelt
    }

    /// The text as it can safely be shown in a message: invisible scalars spelt as code points,
    /// and anything past `limit` characters cut to "…".
    public func shown(limit: Int = 40) -> String {
        String(prefix(limit)).spellingInvisibles() + (count > limit ? "…" : "")
    }

    /// ``shown(limit:)`` in double quotes.
    public func quoted(limit: Int = 40) -> String { "\"" + shown(limit: limit) + "\"" }

    /// A path as messages and the log show it: invisible characters spelt, and one longer than
    /// any real path a person types cut to "…" so that a hostile one cannot flood a message.
    public var shownPath: String { shown(limit: 200) }
}
