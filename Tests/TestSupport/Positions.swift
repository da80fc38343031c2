import TicTacToe

/// The cell at `row`, `column`, for literal positions in tests; traps on a typo.
public func p(_ row: Int, _ column: Int) -> Position {
    guard let position = Position(row: row, column: column) else {
        preconditionFailure("test position (\(row), \(column)) is off the board")
    }
    return position
}
