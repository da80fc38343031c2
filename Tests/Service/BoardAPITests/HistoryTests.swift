import Basics
import BoardProtocol
@testable import BoardAPI
import Foundation
import ViewModel
import Reactive
import TestSupport
import Testing
import TicTacToe

@Suite("Recording finished games")
struct HistoryTests {
    /// A view model on a test scheduler, and the input that presses its cells: what a history
    /// records in these tests.
    static func board() -> (Signal<Position>.Input, GameViewModel) {
        let (presses, input) = Signal<Position>.pipe()
        return (input, GameViewModel(positions: presses, scheduler: TestScheduler()))
    }

    static func at(_ seconds: Int) -> WallTime { WallTime(seconds: 1_795_000_000 + seconds) }

    @Test("wall times are UTC, ISO 8601, to the second")
    func wallTime() {
        #expect(WallTime(seconds: 0).description == "1970-01-01T00:00:00Z")
        #expect(WallTime(seconds: 1_795_473_665).description == "2026-11-23T22:41:05Z")
        #expect(WallTime(seconds: 1_709_197_507).description == "2024-02-29T09:05:07Z")
    }

    @Test("a game is recorded from its start to its outcome: every move, who made it and when")
    func recordsAGame() {
        var recorder = GameRecorder()
        var state = SessionState(snapshot: GameSnapshot(board: Board(starter: .x), nextStarter: .o, opponent: .person))
        let names = PlayerNames(x: "Alice", o: "Bob")
        #expect(recorder.take(.started(starter: .x), state: state, names: names, at: Self.at(0)) == nil)
        let moves = [7, 1, 8, 2, 9].map { Position(keypadKey: $0)! }
        var finished: PlayedGame?
        for (index, position) in moves.enumerated() {
            let mover = state.board.turn ?? .x
            _ = state.press(.person(position))
            #expect(recorder.take(.moved(mover, position), state: state, names: names, at: Self.at(index + 1)) == nil)
        }
        finished = recorder.take(.finished(state.board.outcome), state: state, names: names, at: Self.at(6))
        #expect(finished?.outcome == "x-wins")
        #expect(finished?.moves.map(\.cell) == [7, 1, 8, 2, 9])
        #expect(finished?.moves.map(\.player) == ["X", "O", "X", "O", "X"])
        #expect(finished?.moves.last?.at == Self.at(5).description)
        #expect(finished?.names == ViewState.Names(PlayerNames(x: "Alice", o: "Bob")))
        #expect(finished?.started == Self.at(0).description)
        #expect(finished?.finished == Self.at(6).description)
        #expect(finished?.carriedOver == nil)
    }

    @Test("a game against another board given up by the wait is not the next game's record: that one begins afresh, against two players")
    func gaveUpBeginsAfresh() throws {
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let timings = GameTimings(otherBoardWait: .seconds(60))
        let viewModel = GameViewModel(positions: presses, timings: timings, scheduler: scheduler, firstStarter: .x)
        let recorded = Protected<[PlayedGame]>([])
        let recording = GameRecorder.record(viewModel, clock: { Self.at(0) }) { game in recorded.withValue { $0.append(game) } }
        defer { recording.dispose() }
        viewModel.chooseOpponent.apply(.board(try #require(RemoteBoard(name: "kitchen", side: .o))))
        viewModel.hear(PeerReport(board: "kitchen", online: true, game: PeerGame(side: .o, number: 1, moves: [])))
        input.send(try #require(Position(keypadKey: 5)))
        viewModel.hear(PeerReport(board: "kitchen", online: true, game: PeerGame(side: .o, number: 1, moves: [Position(keypadKey: 5)!, Position(keypadKey: 1)!])))
        viewModel.hear(PeerReport(board: "kitchen", online: false, game: nil))
        scheduler.advance(by: timings.otherBoardWait)
        #expect(viewModel.state.value.opponent == .person)
        let starter = viewModel.state.value.board.starter
        for cell in [7, 4, 8, 5, 9] { input.send(try #require(Position(keypadKey: cell))) }
        let game = try #require(recorded.value.first)
        #expect(recorded.value.count == 1 && game.opponent == "two-players" && game.moves.map(\.cell) == [7, 4, 8, 5, 9])
        #expect(game.starter == starter.rawValue && game.carriedOver == nil && game.outcome == (starter == .x ? "x-wins" : "o-wins"))
    }

    @Test("another board's next game heard with a move in it already: recorded from its start, not added to the unfinished one")
    func laterGameWithItsMoves() throws {
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let viewModel = GameViewModel(positions: presses, scheduler: scheduler, firstStarter: .x)
        let recorded = Protected<[PlayedGame]>([])
        let recording = GameRecorder.record(viewModel, clock: { Self.at(0) }) { game in recorded.withValue { $0.append(game) } }
        defer { recording.dispose() }
        let cells = { (keys: [Int]) in keys.compactMap(Position.init(keypadKey:)) }
        func hear(_ keys: [Int], game: Int) {
            viewModel.hear(PeerReport(board: "kitchen", online: true, game: PeerGame(side: .o, number: game, moves: cells(keys))))
        }
        viewModel.chooseOpponent.apply(.board(try #require(RemoteBoard(name: "kitchen", side: .o))))
        hear([], game: 1)
        input.send(try #require(Position(keypadKey: 7)))
        hear([7, 5], game: 1)
        // The kitchen abandoned game 1 and made its first move of game 2 (O starts it): heard at once.
        hear([3], game: 2)
        for (x, o) in [(8, [3, 8, 2]), (4, [3, 8, 2, 4, 1])] {
            input.send(try #require(Position(keypadKey: x)))
            hear(o, game: 2)
        }
        let game = try #require(recorded.value.first)
        #expect(recorded.value.count == 1 && game.moves.map(\.cell) == [3, 8, 2, 4, 1] && game.moves.map(\.player) == ["O", "X", "O", "X", "O"])
        #expect(game.starter == "O" && game.outcome == "o-wins" && game.carriedOver == nil && game.opponent == "board:kitchen")
    }

    @Test("a game carried over a restart keeps the marks already on the board, which were made before the record began")
    func carriedOver() throws {
        var recorder = GameRecorder()
        let restored = try Board(starter: .x).playing([Position(keypadKey: 5)!, Position(keypadKey: 1)!])
        var state = SessionState(snapshot: GameSnapshot(board: restored, nextStarter: .o, opponent: .computer(.random)))
        _ = state.press(.person(Position(keypadKey: 9)!))
        _ = recorder.take(.moved(.x, Position(keypadKey: 9)!), state: state, names: PlayerNames(), at: Self.at(1))
        _ = state.press(.computer(Position(keypadKey: 3)!))
        _ = recorder.take(.moved(.o, Position(keypadKey: 3)!), state: state, names: PlayerNames(), at: Self.at(2))
        for cell in [7, 2, 8, 4, 6] {
            let mover = state.board.turn ?? .x
            guard state.board.turn != nil else { break }
            _ = state.press(mover == .x ? .person(Position(keypadKey: cell)!) : .computer(Position(keypadKey: cell)!))
            _ = recorder.take(.moved(mover, Position(keypadKey: cell)!), state: state, names: PlayerNames(), at: Self.at(3))
        }
        let game = recorder.take(.finished(state.board.outcome), state: state, names: PlayerNames(), at: Self.at(9))
        #expect(game?.carriedOver == ["", "", "", "", "X", "", "O", "", ""])
        #expect(game?.moves.first?.cell == 9)
        #expect(game?.opponent == "computer-1")
    }
}
