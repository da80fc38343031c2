/// A cell of the 3×3 board, as (row, column) with both in `0...2`; row 0 is the top row.
///
/// A `Position` outside the board cannot be made: the failable initialisers reject it, so code
/// that holds a `Position` never has to range-check it again.
///
/// Its accessors are `@inlinable`: a board's lookups in other modules (the renderer's, nine a
/// frame) are a mask and a shift, not a call. The checks stay in the initialisers, which every
/// outside value (a line offset, a keypad digit, a saved game) goes through.
public struct Position: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let row: Int
    public let column: Int

    /// The valid range of both coordinates.
    public static let range = 0...2

    /// `nil` unless both `row` and `column` are in `0...2`.
    @inlinable
    public init?(row: Int, column: Int) {
        guard 0...2 ~= row, 0...2 ~= column else { return nil }
        self.row = row
        self.column = column
    }

    /// The cell with the given reading-order index (`0` top left … `8` bottom right), or `nil`.
    @inlinable
    public init?(index: Int) {
        guard 0..<9 ~= index else { return nil }
        self.row = index / 3
        self.column = index % 3
    }

    private init(unchecked row: Int, _ column: Int) {
        self.row = row
        self.column = column
    }

    /// Reading-order index: `row * 3 + column`. Both are in `0...2` (the initialisers hold
    /// that), so the arithmetic cannot overflow and needs no check.
    @inlinable
    public var index: Int { row &* 3 &+ column }

    /// This cell's bit in a board's nine-bit masks (`index` is in `0...8`).
    @inlinable
    var bit: UInt16 { 1 &<< UInt16(truncatingIfNeeded: index) }

    /// All nine cells in reading order.
    public static let all: [Position] = (0..<9).map { Position(unchecked: $0 / 3, $0 % 3) }

    public static func < (lhs: Position, rhs: Position) -> Bool { lhs.index < rhs.index }

    public var description: String { "(\(row), \(column))" }
}
