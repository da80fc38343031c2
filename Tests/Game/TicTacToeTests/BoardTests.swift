import TestSupport
import Testing
@testable import TicTacToe

@Suite("Rules")
struct BoardTests {
    @Test("every one of the eight lines wins", arguments: WinningLine.all)
    func everyLineWins(line: WinningLine) throws {
        // X takes the line; O fills cells off the line, never completing one of its own.
        let others = Position.all.filter { !line.contains($0) }
        var board = Board(starter: .x)
        var oMoves = others.makeIterator()
        for (index, position) in line.positions.enumerated() {
            board = try board.playing(position)
            if index < 2, let o = oMoves.next() {
                board = try board.playing(o)
            }
        }
        #expect(board.winner == .x)
        #expect(Array(board.winningLines) == [line])
        #expect(board.isOver)
        #expect(board.turn == nil)
        #expect(!board.canMakeMove)
    }

    @Test("a win in a later row is found even when an earlier row is empty (seed bug)")
    func laterRowWinsWithEmptyFirstRow() throws {
        let board = try Board().playing([p(2, 0), p(1, 0), p(2, 1), p(1, 1), p(2, 2)])
        #expect(board.winner == .x)
        #expect(board.winningLines.map(\.kind) == [.row(2)])
    }

    @Test("diagonals are diagonals, not columns (seed bug)")
    func diagonalsAreDistinct() {
        let diagonal = WinningLine.all.first { $0.kind == .diagonal }
        let anti = WinningLine.all.first { $0.kind == .antiDiagonal }
        #expect(diagonal?.positions == [p(0, 0), p(1, 1), p(2, 2)])
        #expect(anti?.positions == [p(0, 2), p(1, 1), p(2, 0)])
        #expect(Set(WinningLine.all).count == 8)
    }

    @Test("a full board without a line is a draw")
    func draw() throws {
        // X O X / X O O / O X X
        let board = try Board().playing([p(0, 0), p(0, 1), p(0, 2), p(1, 1), p(1, 0), p(1, 2), p(2, 1), p(2, 0), p(2, 2)])
        #expect(board.isDraw)
        #expect(board.winner == nil)
        #expect(board.isOver)
        #expect(board.moveCount == 9)
    }

    @Test("a win on the last cell is a win, not a draw")
    func winOnLastMove() throws {
        // X completes the diagonal with the ninth move.
        let board = try Board().playing([p(0, 0), p(0, 1), p(1, 1), p(0, 2), p(1, 0), p(1, 2), p(2, 1), p(2, 0), p(2, 2)])
        #expect(board.winner == .x)
        #expect(!board.isDraw)
    }

    @Test("an occupied cell is refused and the board is unchanged")
    func occupiedCell() throws {
        let board = try Board().playing(p(1, 1))
        #expect(throws: MoveError.cellOccupied(p(1, 1), by: .x)) { try board.playing(p(1, 1)) }
        #expect(!board.canMakeMove(at: p(1, 1)))
        #expect(board.canMakeMove(at: p(0, 0)))
        #expect(board.turn == .o)
        #expect(board.moveCount == 1)
    }

    @Test("moves after the end are refused")
    func afterTheEnd() throws {
        let board = try Board().playing([p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)])
        #expect(throws: MoveError.gameOver) { try board.playing(p(2, 2)) }
        #expect(!board.canMakeMove(at: p(2, 2)))
    }

    @Test("turns alternate from the chosen starter")
    func starterAndTurns() throws {
        let board = Board(starter: .o)
        #expect(board.turn == .o)
        let after = try board.playing(p(0, 0))
        #expect(after[p(0, 0)] == .o)
        #expect(after.turn == .x)
        #expect(after.starter == .o)
    }

    @Test("positions outside 0...2 cannot be made")
    func positionRange() {
        #expect(Position(row: 3, column: 0) == nil)
        #expect(Position(row: 0, column: -1) == nil)
        #expect(Position(index: 9) == nil)
        #expect(Position(index: 4) == p(1, 1))
        #expect(Position.all.count == 9)
        #expect(Position.all.map(\.index) == Array(0..<9))
    }
}
