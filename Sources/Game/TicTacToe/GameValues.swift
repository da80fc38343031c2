/// What every position is worth under perfect play, and its best moves, worked out once.
///
/// Negamax over the positions reachable in play (5,478 with X starting; the same set with the
/// colours swapped when O starts), memoised in a table with one entry per way of filling nine
/// cells with "the player to move", "the other player" or nothing: 3^9 = 19,683 entries of two
/// bytes, 38 KiB, small enough to stay in a core's caches between moves (the sparse table of
/// two nine-bit masks it replaces, 256 KiB, missed the cache on most lookups). An entry holds
/// the position's value for the player to move — `10 - marks` for a win reached with `marks`
/// marks on the board (sooner is worth more), minus that for a loss, 0 for a draw — and the
/// cells that reach it, so a perfect move is one lookup. The table is filled on first use,
/// once per process, and only read after.
enum GameValues {
    private static let full: UInt16 = 0b1_1111_1111
    /// An entry's low nine bits are the best cells; the value, offset to be positive, is above.
    private static let valueShift: UInt16 = 9
    private static let valueOffset = 10
    /// Never a real entry: every solved position's value is in -9...9.
    private static let unknown = UInt16.max

    /// For a nine-bit mask, the number whose base-3 digits are its bits: the mover's marks count
    /// once and the other player's twice in a position's index.
    private static let ternary: [UInt16] = (0..<512).map { mask in
        var digits: UInt16 = 0, power: UInt16 = 1
        for cell in 0..<9 {
            if mask & 1 << cell != 0 { digits += power }
            power *= 3
        }
        return digits
    }

    private static let table: [UInt16] = {
        var table = [UInt16](repeating: unknown, count: 19_683)
        _ = solve(mover: 0, other: 0, table: &table)
        return table
    }()

    private static func index(mover: UInt16, other: UInt16) -> Int {
        Int(ternary[Int(mover)]) + 2 * Int(ternary[Int(other)])
    }

    /// An entry's value, for the player to move.
    private static func value(of entry: UInt16) -> Int {
        Int(entry >> valueShift) - valueOffset
    }

    /// The marks of the player to move and of the other player; `nil` once the game is over.
    private static func marks(on board: Board) -> (mover: UInt16, other: UInt16)? {
        guard let mover = board.turn else { return nil }
        return mover == .x ? (board.xMarks, board.oMarks) : (board.oMarks, board.xMarks)
    }

    /// The value of the position for the player to move, who holds `mover` and faces `other`.
    static func value(mover: UInt16, other: UInt16) -> Int8 {
        Int8(value(of: table[index(mover: mover, other: other)]))
    }

    /// The value, for the player to move now, of marking `position`: the negated value of the
    /// position it leaves to the other player.
    static func value(of position: Position, on board: Board) -> Int8? {
        guard let (own, other) = marks(on: board), board[position] == nil else { return nil }
        return -value(mover: other, other: own | position.bit)
    }

    /// The cells worth the most to the player to move (bit `i`: the cell with reading-order
    /// index `i`); none once the game is over.
    static func bestMoves(on board: Board) -> UInt16 {
        guard let (own, other) = marks(on: board) else { return 0 }
        return table[index(mover: own, other: other)] & full
    }

    /// Solves the position and its successors, and returns its entry.
    private static func solve(mover: UInt16, other: UInt16, table: inout [UInt16]) -> UInt16 {
        let index = index(mover: mover, other: other)
        if table[index] != unknown { return table[index] }
        let marks = (mover | other).nonzeroBitCount
        var value: Int
        var best: UInt16 = 0
        if !WinningLines(completedBy: other).isEmpty {
            value = -(10 - marks)
        } else if mover | other == full {
            value = 0
        } else {
            value = Int.min
            for cell in 0..<9 where (mover | other) & 1 << UInt16(cell) == 0 {
                let worth = -Self.value(of: solve(mover: other, other: mover | 1 << UInt16(cell), table: &table))
                if worth > value {
                    value = worth
                    best = 1 << UInt16(cell)
                } else if worth == value {
                    best |= 1 << UInt16(cell)
                }
            }
        }
        let entry = UInt16(value + valueOffset) << valueShift | best
        table[index] = entry
        return entry
    }
}
