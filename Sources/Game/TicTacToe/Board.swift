/// The state of one game: nine cells, who started, and the outcome so far.
///
/// A value type with no I/O: `playing(_:)` returns a new board or throws a ``MoveError`` and
/// never changes the receiver. The outcome is computed once per move, so reading `outcome`,
/// `turn` or `winner` is free. The marks are two nine-bit masks, so a board is a few bytes
/// copied without allocation.
public struct Board: Sendable, Hashable {
    /// Who made (or makes) the first move of this game.
    public let starter: Player
    /// Bit `i` set: the cell with reading-order index `i` holds that player's mark. Read by the
    /// inlinable lookups in other modules; changed only here, by `playing(_:)`.
    @usableFromInline private(set) var xMarks: UInt16 = 0
    @usableFromInline private(set) var oMarks: UInt16 = 0
    /// Where the game stands after the moves so far.
    public private(set) var outcome: Outcome

    /// An empty board on which `starter` moves first.
    public init(starter: Player = .x) {
        self.starter = starter
        self.outcome = .inProgress(next: starter)
    }

    /// The mark in a cell, or `nil` when it is free. Inlinable: the renderer asks for every cell
    /// of every frame.
    @inlinable
    public subscript(position: Position) -> Player? {
        if xMarks & position.bit != 0 { return .x }
        if oMarks & position.bit != 0 { return .o }
        return nil
    }

    /// Who moves next, or `nil` once the game is over.
    public var turn: Player? {
        if case .inProgress(let next) = outcome { next } else { nil }
    }

    /// The winner, or `nil` while the game goes on or after a draw.
    public var winner: Player? {
        if case .won(let player, _) = outcome { player } else { nil }
    }

    /// The lines of three the winner completed; empty unless the game was won.
    public var winningLines: WinningLines {
        if case .won(_, let lines) = outcome { lines } else { WinningLines() }
    }

    public var isDraw: Bool { outcome == .draw }

    public var isOver: Bool { turn == nil }

    /// The free cells as a mask (bit `i`: the cell with reading-order index `i`).
    var freeCells: UInt16 { ~(xMarks | oMarks) & 0x1FF }

    /// How many marks are on the board.
    public var moveCount: Int { (xMarks | oMarks).nonzeroBitCount }

    /// `true` when the game is in progress and `position` is free: exactly when
    /// `playing(position)` would succeed.
    public func canMakeMove(at position: Position) -> Bool {
        !isOver && self[position] == nil
    }

    /// `true` while any move is possible.
    public var canMakeMove: Bool { !isOver }

    /// The board after the player whose turn it is marks `position`.
    public func playing(_ position: Position) throws(MoveError) -> Board {
        guard let mover = turn else { throw .gameOver }
        if let owner = self[position] { throw .cellOccupied(position, by: owner) }
        var next = self
        if mover == .x { next.xMarks |= position.bit } else { next.oMarks |= position.bit }
        next.outcome = next.evaluate(lastMover: mover)
        return next
    }

    /// Plays several moves in order; a convenience for tests and replays.
    public func playing(_ positions: [Position]) throws(MoveError) -> Board {
        var board = self
        for position in positions { board = try board.playing(position) }
        return board
    }

    // Only the player who just moved can have completed a line, so only their lines are checked;
    // every line is checked independently (the seed app stopped at the first row with a gap),
    // and all that were completed are kept: one mark can close two.
    private func evaluate(lastMover: Player) -> Outcome {
        let lines = WinningLines(completedBy: lastMover == .x ? xMarks : oMarks)
        if !lines.isEmpty { return .won(by: lastMover, along: lines) }
        if xMarks | oMarks == 0b1_1111_1111 { return .draw }
        return .inProgress(next: lastMover.opponent)
    }
}
