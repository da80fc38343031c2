import TicTacToe

/// The position a matchbox is for: the marks of the board turned to the one of its eight images
/// that comes first (the smallest ``packed`` number), so a position and its images share a key.
///
/// A key names the marks only: who started follows from them (the learner is to move, so equal
/// counts mean it started), and nothing else of a game decides the move.
public struct BoxKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The cells holding X (bit `i`: the cell at index `i`).
    public let xMarks: UInt16
    /// The cells holding O.
    public let oMarks: UInt16

    /// X's marks in the low nine bits, O's in the next nine: the order keys are compared and
    /// stored in.
    public var packed: UInt32 { UInt32(xMarks) | UInt32(oMarks) << 9 }

    /// The key with these marks, if they are nine-bit masks that do not overlap.
    public init?(packed: UInt32) {
        let x = UInt16(packed & 0x1FF), o = UInt16(packed >> 9 & 0x1FF)
        guard packed >> 18 == 0, x & o == 0 else { return nil }
        xMarks = x
        oMarks = o
    }

    /// The key spelt as ``cells``: nine of "X", "O" and ".", in reading order; `nil` for any
    /// other text.
    public init?(cells: String) {
        let marks = Array(cells.utf8)
        guard marks.count == 9 else { return nil }
        var x: UInt16 = 0, o: UInt16 = 0
        for (cell, mark) in marks.enumerated() {
            switch mark {
            case UInt8(ascii: "X"): x |= 1 << cell
            case UInt8(ascii: "O"): o |= 1 << cell
            case UInt8(ascii: "."): break
            default: return nil
            }
        }
        self.init(x: x, o: o)
    }

    /// The position's nine cells in reading order, "X", "O" or ".": how a saved file names a box.
    public var cells: String {
        String((0..<9).map { cell -> Character in xMarks & 1 << cell != 0 ? "X" : oMarks & 1 << cell != 0 ? "O" : "." })
    }

    /// Whether this key is its own position's first image (as ``filing(_:)`` files it).
    public var isFiled: Bool { Self.filing(x: xMarks, o: oMarks).key == self }

    init(x: UInt16, o: UInt16) {
        xMarks = x
        oMarks = o
    }

    /// The key for `board`'s marks and the symmetry that turns `board` into the key's position.
    public static func filing(_ board: Board) -> (key: BoxKey, turning: BoardSymmetry) {
        var x: UInt16 = 0, o: UInt16 = 0
        for position in Position.all {
            switch board[position] {
            case .x: x |= 1 << position.index
            case .o: o |= 1 << position.index
            case nil: break
            }
        }
        return filing(x: x, o: o)
    }

    static func filing(x: UInt16, o: UInt16) -> (key: BoxKey, turning: BoardSymmetry) {
        var best = (key: BoxKey(x: x, o: o), turning: BoardSymmetry.all[0])
        for symmetry in BoardSymmetry.all.dropFirst() {
            let image = BoxKey(x: symmetry.apply(to: x), o: symmetry.apply(to: o))
            if image < best.key { best = (image, symmetry) }
        }
        return best
    }

    /// The cells no mark holds.
    var freeCells: UInt16 { ~(xMarks | oMarks) & 0x1FF }

    /// The symmetries that leave this position as it is (at least the identity).
    var ownSymmetries: [BoardSymmetry] {
        BoardSymmetry.all.filter { $0.apply(to: xMarks) == xMarks && $0.apply(to: oMarks) == oMarks }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.packed < rhs.packed }

    /// The position in three rows of X, O and `.`, top row first: "X../.O./...".
    public var description: String {
        let cells = Array(self.cells)
        return (0..<3).map { String(cells[$0 * 3..<$0 * 3 + 3]) }.joined(separator: "/")
    }
}
