import Basics
import Matchboxes
import Reactive
import TestSupport
import TicTacToe
import Testing
@testable import Presentation

/// The view model against the matchbox learner: a person presses X's cells, the learner draws
/// O's from its boxes and learns from each game it finishes.
@Suite("Playing against the learner")
struct LearnerOpponentTests {
    let scheduler = TestScheduler()
    let input: Signal<Position>.Input
    let viewModel: GameViewModel
    let timings = GameTimings(idleSleep: .seconds(600), computerThinking: .milliseconds(600), opponentShown: .milliseconds(1500))

    init() {
        let presses: Signal<Position>
        (presses, input) = Signal<Position>.pipe()
        viewModel = GameViewModel(
            positions: presses, timings: timings, scheduler: scheduler, firstStarter: .x, opponent: .learner, random: SeededRandom(seed: 2))
    }

    /// X takes the first free cell in reading order each turn until the game ends.
    private func playOut() {
        while !viewModel.board.value.isOver {
            if viewModel.turn.value == .x, let cell = Position.all.first(where: { viewModel.board.value.canMakeMove(at: $0) }) {
                input.send(cell)
            }
            scheduler.advance(by: .milliseconds(700))
        }
    }

    @Test("the learner moves after the thinking time, a free cell; a press in its turn is refused")
    func moves() {
        input.send(p(1, 1))
        scheduler.advance(by: .milliseconds(100))
        input.send(p(0, 0))
        #expect(viewModel.flashingCell.value == p(0, 0), "a press in the learner's turn is refused")
        scheduler.advance(by: .milliseconds(499))
        #expect(viewModel.board.value.moveCount == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(viewModel.board.value.moveCount == 2)
        #expect(viewModel.state.value.moves.map(Array.init) == [p(1, 1)] + Position.all.filter { viewModel.board.value[$0] == .o })
    }

    @Test("its box shows while it thinks, in the blink: lit from X's move, dark after the half period, gone with its move; the blink starts lit for each board")
    func boxInTheBlink() {
        #expect(!viewModel.state.value.isBlinking)
        input.send(p(1, 1))
        #expect(viewModel.state.value.showsLearnersBox && viewModel.state.value.blinkOn)
        scheduler.advance(by: .milliseconds(399))
        #expect(viewModel.state.value.blinkOn)
        scheduler.advance(by: .milliseconds(1))
        #expect(!viewModel.state.value.blinkOn, "the box goes dark after the blink's half period")
        scheduler.advance(by: .milliseconds(200))
        #expect(viewModel.board.value.moveCount == 2 && !viewModel.state.value.isBlinking && viewModel.state.value.blinkOn)
        // The next think starts lit, its first half period whole.
        let cell = Position.all.first { viewModel.board.value.canMakeMove(at: $0) } ?? p(0, 0)
        scheduler.advance(by: .milliseconds(150))
        input.send(cell)
        #expect(viewModel.state.value.showsLearnersBox && viewModel.state.value.blinkOn)
        scheduler.advance(by: .milliseconds(399))
        #expect(viewModel.state.value.blinkOn, "the blink restarted with the board, not left at its old phase")
    }

    @Test("each finished game teaches it by its result; the snapshot carries what it learnt; a game given up teaches nothing")
    func learns() throws {
        for _ in 0..<6 {
            playOut()
            let state = viewModel.state.value
            let game = FinishedGame(starter: state.board.starter, learner: .o, moves: Array(try #require(state.moves)))
            #expect(game.result != nil)
            #expect(viewModel.snapshot.value.learner == state.learner)
            viewModel.newGame.apply()
        }
        let learnt = viewModel.state.value.learner
        #expect(!learnt.boxes.isEmpty)
        #expect(viewModel.score.value.xWins + viewModel.score.value.oWins + viewModel.score.value.draws == 6)

        input.send(p(1, 1))
        scheduler.advance(by: .milliseconds(700))
        viewModel.startOver.apply()
        #expect(viewModel.state.value.learner == learnt, "a game given up taught it something")
    }

    @Test("the learner's boxes after a game are exactly Michie's rules applied to its moves")
    func bookkeeping() throws {
        let before = viewModel.state.value.learner
        playOut()
        let state = viewModel.state.value
        var expected = before
        expected.learn(from: FinishedGame(starter: state.board.starter, learner: .o, moves: Array(try #require(state.moves))))
        #expect(state.learner == expected)
        #expect(state.learner != before)
    }
}
