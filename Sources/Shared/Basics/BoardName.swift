/// A board's name on a network: who another board plays against (``Opponent/board(_:)``), and
/// the level of its topics on a broker after `tictactoe/`, so it can hold no `/`, `+` or `#`
/// (MQTT's separators and wildcards), and the same board is never two names.
public enum BoardName {
    public static let longest = 32

    /// Lower-case letters, digits and hyphens, 1–32 of them, beginning with a letter or digit.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= longest else { return false }
        let allowed: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        return first != "-" && name.unicodeScalars.allSatisfy(allowed)
    }

    /// What a name may be, for messages.
    public static let form = "1–\(longest) lower-case letters, digits and hyphens, not beginning with a hyphen, such as \"kitchen\" or \"grandma-1\""
}
