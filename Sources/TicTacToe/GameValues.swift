/// What every reachable position is worth under perfect play, worked out once.
///
/// Negamax over the positions reachable in play (5,478 with X starting; the same set with the
/// colours swapped when O starts), memoised in a table indexed by the marks of the player to move
/// and of the other player (two nine-bit masks: 2^18 one-byte entries, 256 KiB). A value is for
/// the player to move: `10 - marks` for a win reached with `marks` marks on the board (sooner is
/// worth more), minus that for a loss, 0 for a draw. The table is filled on first use, once per
/// process, and only read after: a perfect move is one lookup per free cell.
enum GameValues {
    /// Not yet worked out (never a real value: they lie in -9...9).
    private static let unknown = Int8.min
    private static let full: UInt16 = 0b1_1111_1111

    private static let table: [Int8] = {
        var table = [Int8](repeating: unknown, count: 1 << 18)
        _ = solve(mover: 0, other: 0, table: &table)
        return table
    }()

    /// The value of the position for the player to move, who holds `mover` and faces `other`.
    static func value(mover: UInt16, other: UInt16) -> Int8 {
        table[Int(mover) | Int(other) << 9]
    }

    /// The value, for the player to move now, of marking `position`: the negated value of the
    /// position it leaves to the other player.
    static func value(of position: Position, on board: Board) -> Int8? {
        guard let mover = board.turn, board[position] == nil else { return nil }
        let (own, other) = mover == .x ? (board.xMarks, board.oMarks) : (board.oMarks, board.xMarks)
        return -value(mover: other, other: own | 1 << UInt16(position.index))
    }

    private static func solve(mover: UInt16, other: UInt16, table: inout [Int8]) -> Int8 {
        let index = Int(mover) | Int(other) << 9
        if table[index] != unknown { return table[index] }
        let marks = (mover | other).nonzeroBitCount
        let value: Int8
        if !WinningLines(completedBy: other).isEmpty {
            value = -Int8(10 - marks)
        } else if mover | other == full {
            value = 0
        } else {
            var best = Int8.min
            for cell in 0..<9 where (mover | other) & 1 << UInt16(cell) == 0 {
                best = max(best, -solve(mover: other, other: mover | 1 << UInt16(cell), table: &table))
            }
            value = best
        }
        table[index] = value
        return value
    }
}
