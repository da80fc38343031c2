/// One of the two sides. X moves with red lights, O with green; the colours live in the
/// presentation layer, not here.
public enum Player: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case x = "X"
    case o = "O"

    /// The player who moves after this one.
    public var opponent: Player { self == .x ? .o : .x }

    public var description: String { rawValue }
}
