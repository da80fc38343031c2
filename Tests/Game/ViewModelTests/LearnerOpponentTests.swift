import Basics
import Matchboxes
import Reactive
import TestSupport
import TicTacToe
import Testing
@testable import ViewModel

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
        let oMoves: [Position] = Position.all.filter { viewModel.board.value[$0] == .o }
        #expect(viewModel.state.value.moves.map(Array.init) == [p(1, 1)] + oMoves)
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

    @Test("a press while the choice of the learner is shown, the learner to start: refused, and its box blinks from then")
    func pressDuringTheChoice() {
        // The learner is chosen again: a new game, which O starts (X started the first).
        _ = viewModel.chooseOpponent.apply(.learner)
        #expect(viewModel.state.value.showsOpponent && viewModel.board.value.turn == .o)
        scheduler.advance(by: .milliseconds(100))
        input.send(p(0, 0))
        #expect(viewModel.state.value.showsLearnersBox && viewModel.state.value.isBlinking && viewModel.state.value.blinkOn)
        scheduler.advance(by: .milliseconds(400))
        #expect(!viewModel.state.value.blinkOn, "the box blinks: it cannot pass for steady marks")
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

    @Test("reset: refused while a game against it is under way (a mark down, or its own first move), then a fresh learner in one change")
    func reset() {
        playOut()
        let trained = viewModel.state.value.learner
        #expect(trained.record.games == 1 && !trained.boxes.isEmpty)
        // The next game: the learner (O) starts it, and thinks.
        viewModel.newGame.apply()
        #expect(viewModel.turn.value == .o && viewModel.board.value.moveCount == 0)
        #expect(viewModel.resetLearner(ifGames: nil) == .playing, "its first move is being drawn from its old boxes")
        scheduler.advance(by: .milliseconds(2500))
        #expect(viewModel.board.value.moveCount == 1)
        #expect(viewModel.resetLearner(ifGames: nil) == .playing)
        #expect(viewModel.state.value.learner == trained, "a refusal changes nothing")
        playOut()
        #expect(viewModel.resetLearner(ifGames: 1) == .changed(games: 2, resets: 0), "a reset asked for at 1 game acts on nothing once it has played 2")
        #expect(viewModel.state.value.learner.record.games == 2)
        let changes = Protected(0)
        let counting = viewModel.state.signal.observeValues { _ in changes.withValue { $0 += 1 } }
        #expect(viewModel.resetLearner(ifGames: 2) == .done)
        counting.dispose()
        #expect(changes.value == 1)
        let fresh = viewModel.state.value.learner
        #expect(fresh.boxes.isEmpty && fresh.record.games == 0 && fresh.record.tens.isEmpty && fresh.refills == 0)
        #expect(fresh.rules == trained.rules)
        #expect(fresh.resets == 1 && trained.resets == 0, "one reset more")
        #expect(viewModel.state.value.snapshot.learner == fresh, "what is saved is the fresh learner")
    }

    @Test("reset asked about one learner: refused for the next one, reset and played as far, which the count of resets tells apart")
    func resetAskedAboutAnother() {
        playOut()
        let asked = viewModel.state.value.learner
        #expect(asked.record.games == 1 && asked.resets == 0)
        #expect(viewModel.resetLearner(ifGames: nil) == .done)
        viewModel.newGame.apply()
        scheduler.advance(by: .milliseconds(2500))
        playOut()
        let next = viewModel.state.value.learner
        #expect(next.record.games == 1 && next.resets == 1, "played as far as the one asked about")
        #expect(viewModel.resetLearner(ifGames: 1, resets: 0) == .changed(games: 1, resets: 1), "the late yes was for the first learner")
        #expect(viewModel.state.value.learner == next, "a refusal changes nothing")
        #expect(viewModel.resetLearner(ifGames: 1, resets: 1) == .done)
        #expect(viewModel.state.value.learner.resets == 2 && viewModel.state.value.learner.record.games == 0)
    }

    @Test("reset against another opponent, mid-game: the game is not the learner's, so it is reset")
    func resetWhileOthersPlay() {
        playOut()
        viewModel.chooseOpponent.apply(.person)
        input.send(p(1, 1))
        #expect(viewModel.board.value.moveCount == 1)
        #expect(viewModel.resetLearner(ifGames: nil) == .done)
        #expect(viewModel.state.value.learner.record.games == 0)
    }
}
