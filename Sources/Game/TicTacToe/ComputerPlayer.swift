/// How well the computer plays.
public enum ComputerLevel: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Any free cell, at random.
    case random = 1
    /// Completes its own line if it can, else blocks the other player's, else plays at random.
    case winOrBlock = 2
    /// Perfect, but one move in four is level 2's: it never misses a win or a block, but may
    /// walk into a fork.
    case fallible = 3
    /// Never loses, and wins whenever the other player's mistake allows it.
    case perfect = 4

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "level \(rawValue)" }
}

/// The computer at the board: picks its move for a board at its level.
///
/// Pure and deterministic: every choice it makes at random comes from the random source it was
/// given, so a seeded source makes a game repeatable (the tests pin games that way). Among moves
/// worth the same it chooses at random too, so a perfect game is not always the same game.
public struct ComputerPlayer<Source: RandomNumberGenerator & Sendable>: Sendable {
    public var level: ComputerLevel
    private var random: Source

    public init(level: ComputerLevel, random: Source) {
        self.level = level
        self.random = random
    }

    /// The cell the computer marks on `board` when it is to move; `nil` once the game is over.
    public mutating func move(on board: Board) -> Position? {
        guard board.turn != nil else { return nil }
        switch level {
        case .random:
            return randomMove(on: board)
        case .winOrBlock:
            return winningOrBlocking(on: board) ?? randomMove(on: board)
        case .fallible:
            guard random.next(upperBound: UInt64(4)) == 0 else { return perfectMove(on: board) }
            return winningOrBlocking(on: board) ?? randomMove(on: board)
        case .perfect:
            return perfectMove(on: board)
        }
    }

    private mutating func randomMove(on board: Board) -> Position? {
        randomCell(in: board.freeCells)
    }

    /// A move that completes a line of the mover's, else one that takes the cell the other
    /// player would complete a line with. (In play neither has a line yet, so any line a cell
    /// completes runs through it.)
    private mutating func winningOrBlocking(on board: Board) -> Position? {
        guard let mover = board.turn else { return nil }
        for player in [mover, mover.opponent] {
            let marks = player == .x ? board.xMarks : board.oMarks
            var closing: UInt16 = 0
            for cell in Position.all where board.freeCells & cell.bit != 0 {
                if !WinningLines(completedBy: marks | cell.bit).isEmpty { closing |= cell.bit }
            }
            if let cell = randomCell(in: closing) { return cell }
        }
        return nil
    }

    /// One of the moves worth the most under perfect play: one lookup, no allocation.
    private mutating func perfectMove(on board: Board) -> Position? {
        randomCell(in: GameValues.bestMoves(on: board))
    }

    /// One of the cells in `mask` (bit `i`: the cell with reading-order index `i`), drawn as
    /// `randomElement` draws from the same cells listed in reading order: the same numbers from
    /// the source give the same cell, with no array made.
    private mutating func randomCell(in mask: UInt16) -> Position? {
        let count = mask.nonzeroBitCount
        guard count > 0 else { return nil }
        var skip = Int.random(in: 0..<count, using: &random)
        for cell in Position.all where mask & cell.bit != 0 {
            if skip == 0 { return cell }
            skip -= 1
        }
        return nil
    }
}

/// A small, fast generator with a seed (SplitMix64): the same seed gives the same numbers on
/// every machine, so games against the computer can be replayed.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Seeded from the system's random source, for play.
    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
