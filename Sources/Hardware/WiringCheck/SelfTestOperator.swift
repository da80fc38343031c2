/// The person at the board during a self-test: looks at the LEDs and presses buttons when
/// asked. The terminal implementation asks a human; tests use a simulated one that looks at
/// the simulated chip through the board's *actual* wiring, faults and all.
public protocol SelfTestOperator: Sendable {
    /// Tells the operator something (a heading, a finding).
    func say(_ text: String)
    /// Asks which cell is lit and in what colour. Nil when nothing is lit. Throws when no
    /// answer can come (the terminal's input has ended).
    func seenCell(prompt: String) throws(NoAnswer) -> SeenCell?
    /// Asks which status LEDs are lit. Throws when no answer can come.
    func seenStatus(prompt: String) throws(NoAnswer) -> (x: Bool, o: Bool)
    /// Two cells are lit, one of them dim (in one colour, or X's red beside O's green): asks
    /// which is the brighter, colour aside (its index in reading order). Nil when they look the
    /// same. Throws when no answer can come.
    func brighterCell(prompt: String) throws(NoAnswer) -> Int?
    /// Asks the operator to press the physical button `target`, and gives them up to `timeout`
    /// to do it. Returns once `pressed()` holds or the time is up.
    func press(_ target: ButtonTarget, prompt: String, waitingUpTo timeout: Duration, until pressed: @escaping @Sendable () -> Bool)
}

/// A physical button on the board, as the builder knows it (not the line it is wired to).
public enum ButtonTarget: Sendable, Hashable {
    /// The cell in reading order, 0 top left … 8 bottom right.
    case cell(Int)
    case newGame
}

/// A lit cell as the operator reports it.
public struct SeenCell: Sendable, Hashable {
    public var index: Int
    public var red: Bool
    public var green: Bool

    public init(index: Int, red: Bool, green: Bool) {
        self.index = index
        self.red = red
        self.green = green
    }
}

/// The self-test cannot go on: nobody can answer its questions (the terminal's input ended).
public struct NoAnswer: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why, in words: "standard input ended".
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String {
        "the self-test stopped: \(reason), so no question can be answered. Every LED is off; run it again at a terminal, or use --non-interactive."
    }
}
