/// The state of one game: nine cells, who started, and the outcome so far.
///
/// A value type with no I/O: `playing(_:)` returns a new board or throws a ``MoveError`` and
/// never changes the receiver. The outcome is computed once per move, so reading `outcome`,
/// `turn` or `winner` is free.
public struct Board: Sendable, Hashable {
    /// Who made (or makes) the first move of this game.
    public let starter: Player
    private var cells: [Player?]
    /// Where the game stands after the moves so far.
    public private(set) var outcome: Outcome

    /// An empty board on which `starter` moves first.
    public init(starter: Player = .x) {
        self.starter = starter
        self.cells = Array(repeating: nil, count: 9)
        self.outcome = .inProgress(next: starter)
    }

    /// The mark in a cell, or `nil` when it is free.
    public subscript(position: Position) -> Player? { cells[position.index] }

    /// Who moves next, or `nil` once the game is over.
    public var turn: Player? {
        if case .inProgress(let next) = outcome { next } else { nil }
    }

    /// The winner, or `nil` while the game goes on or after a draw.
    public var winner: Player? {
        if case .won(let player, _) = outcome { player } else { nil }
    }

    /// The line of three that won, or `nil`.
    public var winningLine: WinningLine? {
        if case .won(_, let line) = outcome { line } else { nil }
    }

    public var isDraw: Bool { outcome == .draw }

    public var isOver: Bool { turn == nil }

    /// How many marks are on the board.
    public var moveCount: Int { cells.lazy.filter { $0 != nil }.count }

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
        next.cells[position.index] = mover
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
    // every line is checked independently (the seed app stopped at the first row with a gap).
    private func evaluate(lastMover: Player) -> Outcome {
        for line in WinningLine.all where line.positions.allSatisfy({ self[$0] == lastMover }) {
            return .won(by: lastMover, along: line)
        }
        if cells.allSatisfy({ $0 != nil }) { return .draw }
        return .inProgress(next: lastMover.opponent)
    }
}
