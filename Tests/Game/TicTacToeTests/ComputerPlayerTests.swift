import TestSupport
import Testing
@testable import TicTacToe

/// The value of `board` for the player to move under perfect play, worked out the plain way
/// (minimax over `Board` itself, memoised by board): +1 a forced win, 0 a draw, -1 a forced loss.
/// Independent of the computer's own table, so the table is checked, not trusted.
private final class Reference {
    private var memo: [Board: Int] = [:]

    func value(_ board: Board) -> Int {
        if let known = memo[board] { return known }
        let value: Int
        switch board.outcome {
        case .won: value = -1  // the player who just moved won
        case .draw: value = 0
        case .inProgress:
            value = Position.all.compactMap { try? board.playing($0) }.map { -self.value($0) }.max() ?? 0
        }
        memo[board] = value
        return value
    }
}

/// The moves a computer at `level` may choose on `board`: what it chose with several seeds.
private func choices(_ level: ComputerLevel, on board: Board) -> Set<Position> {
    Set((0..<6).compactMap { seed -> Position? in
        var player = ComputerPlayer(level: level, random: SeededRandom(seed: UInt64(seed)))
        return player.move(on: board)
    })
}

@Suite("The computer opponent")
struct ComputerPlayerTests {
    @Test("5,478 positions can be reached in play from an empty board with X to start")
    func reachablePositions() {
        var seen: Set<Board> = []
        func visit(_ board: Board) {
            guard seen.insert(board).inserted else { return }
            for cell in Position.all { if let next = try? board.playing(cell) { visit(next) } }
        }
        visit(Board(starter: .x))
        #expect(seen.count == 5478)
    }

    @Test("perfect play never loses, as X or as O, whoever starts, against every sequence of moves; it wins whenever a mistake allows",
          arguments: [Player.x, .o], [Player.x, .o])
    func perfectNeverLoses(computer: Player, starter: Player) {
        let reference = Reference()
        var games = 0, wins = 0, forcedWinsTaken = 0
        func walk(_ board: Board, winWasForced: Bool) {
            switch board.outcome {
            case .won(let winner, _):
                games += 1
                #expect(winner == computer, "lost: \(board)")
                if winner == computer { wins += 1 }
                if winWasForced { forcedWinsTaken += 1 }
            case .draw:
                games += 1
                #expect(!winWasForced, "drew a game it could have forced a win in: \(board)")
            case .inProgress(let next) where next == computer:
                let value = reference.value(board)
                let moves = choices(.perfect, on: board)
                #expect(!moves.isEmpty)
                for move in moves {
                    guard let after = try? board.playing(move) else {
                        Issue.record("an illegal move \(move) on \(board)")
                        continue
                    }
                    #expect(-reference.value(after) == value, "\(move) throws away the value of \(board)")
                    walk(after, winWasForced: winWasForced || value > 0)
                }
            case .inProgress:
                for cell in Position.all {
                    if let after = try? board.playing(cell) { walk(after, winWasForced: winWasForced) }
                }
            }
        }
        walk(Board(starter: starter), winWasForced: false)
        #expect(games > 0)
        #expect(forcedWinsTaken > 0, "no mistake of the opponent was punished: the walk proves less than it says")
        print("perfect as \(computer), \(starter) starts: \(games) games walked, \(wins) won, none lost")
    }

    @Test("the table's value of every cell agrees with plain minimax on every reachable position")
    func tableAgrees() {
        let reference = Reference()
        var seen: Set<Board> = []
        func visit(_ board: Board) {
            guard seen.insert(board).inserted, board.turn != nil else { return }
            for cell in Position.all {
                guard let after = try? board.playing(cell) else { continue }
                let table = GameValues.value(of: cell, on: board).map { Int($0.signum()) }
                #expect(table == -reference.value(after), "\(cell) on \(board)")
                visit(after)
            }
        }
        visit(Board(starter: .x))
        visit(Board(starter: .o))
    }

    @Test("the table's best moves are exactly the cells of highest value, on every reachable position")
    func bestMovesAgree() {
        var seen: Set<Board> = []
        var positions = 0
        func visit(_ board: Board) {
            guard seen.insert(board).inserted else { return }
            guard board.turn != nil else {
                #expect(GameValues.bestMoves(on: board) == 0, "a finished game has no move: \(board)")
                return
            }
            positions += 1
            let values = Position.all.compactMap { cell in GameValues.value(of: cell, on: board).map { (cell, $0) } }
            let top = values.map(\.1).max()
            let expected = values.filter { $0.1 == top }.reduce(UInt16(0)) { $0 | $1.0.bit }
            #expect(expected != 0)
            #expect(GameValues.bestMoves(on: board) == expected, "\(board)")
            for cell in Position.all { if let after = try? board.playing(cell) { visit(after) } }
        }
        visit(Board(starter: .x))
        visit(Board(starter: .o))
        #expect(positions == 2 * 4_520, "positions in play with a move to make, X or O starting")
    }

    @Test("level 2 completes its own line first, else blocks the other player's")
    func winOrBlock() throws {
        // X: (0,0) (0,1); O: (1,0) (1,1); X to move: X wins at (0,2) rather than block (1,2).
        let winning = try Board(starter: .x).playing([p(0, 0), p(1, 0), p(0, 1), p(1, 1)])
        #expect(choices(.winOrBlock, on: winning) == [p(0, 2)])
        // X: (0,0) (0,1); O: (1,1); O to move, no line of its own to complete: it blocks (0,2).
        let blocking = try Board(starter: .x).playing([p(0, 0), p(1, 1), p(0, 1)])
        #expect(choices(.winOrBlock, on: blocking) == [p(0, 2)])
    }

    @Test("every level plays only free cells, nothing once the game is over, and the same game for the same seed")
    func legalAndRepeatable() throws {
        for level in ComputerLevel.allCases {
            var first = ComputerPlayer(level: level, random: SeededRandom(seed: 7))
            var second = ComputerPlayer(level: level, random: SeededRandom(seed: 7))
            var board = Board(starter: .o)
            while let move = first.move(on: board) {
                #expect(board[move] == nil)
                #expect(second.move(on: board) == move)
                board = try board.playing(move)
            }
            #expect(board.isOver)
            #expect(second.move(on: board) == nil)
        }
    }

    @Test("win, draw and loss rates per level, against a random player and against a perfect one")
    func rates() throws {
        struct Tally { var won = 0, drawn = 0, lost = 0 }
        func play(_ level: ComputerLevel, against rival: ComputerLevel, games: Int, seed: UInt64) throws -> Tally {
            var computer = ComputerPlayer(level: level, random: SeededRandom(seed: seed))
            var other = ComputerPlayer(level: rival, random: SeededRandom(seed: seed &+ 1))
            var tally = Tally()
            for game in 0..<games {
                // The computer plays O; who starts alternates, as on the board.
                var board = Board(starter: game.isMultiple(of: 2) ? .x : .o)
                while let next = board.turn {
                    let move = next == .o ? computer.move(on: board) : other.move(on: board)
                    board = try board.playing(try #require(move))
                }
                switch board.winner {
                case .o: tally.won += 1
                case .x: tally.lost += 1
                case nil: tally.drawn += 1
                }
            }
            return tally
        }
        let games = 2000
        var againstRandom: [ComputerLevel: Tally] = [:], againstPerfect: [ComputerLevel: Tally] = [:]
        for level in ComputerLevel.allCases {
            for rival in [ComputerLevel.random, .perfect] {
                let tally = try play(level, against: rival, games: games, seed: 42)
                if rival == .random { againstRandom[level] = tally } else { againstPerfect[level] = tally }
                let percent = { (count: Int) in Double(count * 1000 / games) / 10 }
                print("\(level) against \(rival == .random ? "a random player" : "a perfect player"): won \(percent(tally.won))%, drawn \(percent(tally.drawn))%, lost \(percent(tally.lost))%")
                if level == .perfect { #expect(tally.lost == 0) }
                if rival == .perfect { #expect(tally.won == 0, "\(level) beat a perfect player") }
            }
        }
        let wins = ComputerLevel.allCases.map { againstRandom[$0]?.won ?? 0 }
        let losses = ComputerLevel.allCases.map { againstRandom[$0]?.lost ?? 0 }
        #expect(wins == wins.sorted(), "a higher level won less often against a random player: \(wins)")
        #expect(losses == losses.sorted(by: >), "a higher level lost more often against a random player: \(losses)")
        let lossesToPerfect = ComputerLevel.allCases.map { againstPerfect[$0]?.lost ?? 0 }
        #expect(lossesToPerfect == lossesToPerfect.sorted(by: >), "a higher level lost more often against a perfect player: \(lossesToPerfect)")
    }

    @Test("opponents by name, in the order the board steps through them (the gesture: ComputerOpponentTests, OtherBoardTests)")
    func opponents() {
        #expect(Opponent.allCases.map(\.name) == ["two-players", "computer-1", "computer-2", "computer-3", "computer-4", "learner"])
        #expect(Opponent.allCases.allSatisfy { Opponent(name: $0.name) == $0 })
        #expect(Opponent(name: "computer-5") == nil)
        #expect(Opponent.allCases.filter(\.isMachine).count == 5)
    }
}
