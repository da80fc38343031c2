extension Position {
    /// The cell for a key of a numeric keypad laid over the board: 7 8 9 is the top row,
    /// 1 2 3 the bottom. `nil` for anything but 1–9.
    public init?(keypadKey key: Int) {
        guard (1...9).contains(key) else { return nil }
        self.init(row: 2 - (key - 1) / 3, column: (key - 1) % 3)
    }

    /// The numeric-keypad key of this cell (7 for the top left).
    public var keypadKey: Int { (2 - row) * 3 + column + 1 }

    /// The cell as a player names it, by the key that presses it: "cell 7" is the top left.
    /// Every message about a cell says it so (the terminal's, the log's, the API's, the page's).
    public var name: String { "cell \(keypadKey)" }
}
