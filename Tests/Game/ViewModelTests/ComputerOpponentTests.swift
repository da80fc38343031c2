import Basics
import Lights
import Reactive
import TestSupport
import TicTacToe
import Testing
@testable import ViewModel

/// The view model against the computer: a person presses X's cells, the computer O's.
@Suite("Playing against the computer")
struct ComputerOpponentTests {
    let scheduler = TestScheduler()
    let input: Signal<Position>.Input
    let viewModel: GameViewModel
    let events = Recorded<GameEvent>()
    let timings = GameTimings(idleSleep: .seconds(60), computerThinking: .milliseconds(600), opponentShown: .milliseconds(1500))

    init() {
        let presses: Signal<Position>
        (presses, input) = Signal<Position>.pipe()
        viewModel = GameViewModel(
            positions: presses, timings: timings, scheduler: scheduler, firstStarter: .x, opponent: .computer(.perfect),
            random: SeededRandom(seed: 1))
        events.record(viewModel.events)
    }

    @Test("the computer's move comes after its thinking time, with its status LED on meanwhile")
    func thinksThenMoves() {
        input.send(p(1, 1))
        #expect(viewModel.frame.value.description == ". . .\n. R .\n. . .\nX:off O:dim")
        scheduler.advance(by: .milliseconds(599))
        #expect(viewModel.board.value.moveCount == 1, "moved before its thinking time was up")
        scheduler.advance(by: .milliseconds(1))
        #expect(viewModel.board.value.moveCount == 2)
        #expect(viewModel.turn.value == .x)
        let corner = Position.all.first { viewModel.board.value[$0] == .o }
        #expect(corner.map { [0, 2, 6, 8].contains($0.index) } == true, "perfect play answers the centre in a corner")
        #expect(viewModel.frame.value.xStatus && !viewModel.frame.value.oStatus)
        #expect(events.values.contains(.moved(.o, corner ?? p(0, 0))))
    }

    @Test("a person pressing in the computer's turn is refused like an illegal press: amber, nothing else changes")
    func refusedInItsTurn() {
        input.send(p(1, 1))
        let before = viewModel.board.value
        input.send(p(2, 2))
        #expect(viewModel.board.value == before)
        #expect(viewModel.flashingCell.value == p(2, 2))
        #expect(viewModel.frame.value.cells[8] == .amber)
        #expect(events.values.last == .othersTurn(p(2, 2)))
        scheduler.advance(by: .milliseconds(600))
        #expect(viewModel.board.value.moveCount == 2, "the computer still moves")
    }

    @Test("when the computer starts, it moves without being asked; a new game mid-thought cancels the move")
    func computerStarts() {
        play(p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(2, 2))  // whatever O does, a game goes on
        viewModel.startOver.apply()  // O starts the next game
        #expect(viewModel.board.value.starter == .o)
        scheduler.advance(by: .milliseconds(300))
        viewModel.startOver.apply()  // X starts: the thought about the last board is dropped
        scheduler.advance(by: .seconds(2))
        #expect(viewModel.board.value.moveCount == 0)
        viewModel.startOver.apply()  // O again: it opens the game itself
        scheduler.advance(by: .milliseconds(600))
        #expect(viewModel.board.value.moveCount == 1)
        #expect(viewModel.turn.value == .x)
    }

    @Test("falling asleep cancels the computer's thought; woken, it thinks again from the start")
    func sleepsToo() {
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let slowThinker = GameTimings(idleSleep: .seconds(60), computerThinking: .seconds(90))
        let viewModel = GameViewModel(
            positions: presses, timings: slowThinker, scheduler: scheduler, opponent: .computer(.random), random: SeededRandom(seed: 3))
        input.send(p(1, 1))
        scheduler.advance(by: .seconds(60))
        #expect(viewModel.isAsleep.value)
        scheduler.advance(by: .seconds(60))
        #expect(viewModel.board.value.moveCount == 1, "moved while the lights were dark")
        #expect(scheduler.pendingCount == 0, "a dark board schedules nothing, a thinking computer included")
        input.send(p(0, 0))  // only wakes
        #expect(viewModel.board.value.moveCount == 1)
        scheduler.advance(by: .seconds(40))
        input.send(p(0, 0))  // refused in the computer's turn, but someone is there: no sleep yet
        #expect(viewModel.flashingCell.value == p(0, 0))
        scheduler.advance(by: .seconds(49))
        #expect(viewModel.board.value.moveCount == 1, "the thought was not started again from the wake-up")
        scheduler.advance(by: .seconds(1))
        #expect(viewModel.board.value.moveCount == 2)
    }

    @Test("the gesture steps through the opponents, starts a new game each time and shows the choice for a moment")
    func choosingOpponents() {
        var shown: [String] = []
        for _ in Opponent.allCases {
            viewModel.nextOpponent.apply()
            shown.append(viewModel.frame.value.description)
            #expect(viewModel.board.value.moveCount == 0)
            scheduler.advance(by: .milliseconds(1499))
            #expect(viewModel.frame.value.description == shown.last, "the choice went before its time")
            scheduler.advance(by: .milliseconds(1))
        }
        #expect(viewModel.state.value.opponent == .computer(.perfect), "six steps from level 4 come round to it")
        #expect(shown == [
            "g . g\n. g .\ng . g\nX:off O:off",
            "R . g\n. . .\n. . .\nX:off O:off",
            "g . .\n. . .\n. . .\nX:off O:off",
            "g g .\n. . .\n. . .\nX:off O:off",
            "g g g\n. . .\n. . .\nX:off O:off",
            "g g g\ng . .\n. . .\nX:off O:off",
        ])
        #expect(events.values.contains(.opponentChosen(.learner, starter: .o)))
        #expect(events.values.contains(.opponentChosen(.person, starter: .x)))
    }

    @Test("a choice made while the last is still shown is itself shown in full")
    func quickChoices() {
        viewModel.nextOpponent.apply()
        scheduler.advance(by: .seconds(1))
        viewModel.nextOpponent.apply()
        scheduler.advance(by: .milliseconds(1499))
        #expect(viewModel.state.value.showsOpponent, "the second choice went with the first one's time")
        scheduler.advance(by: .milliseconds(1))
        #expect(!viewModel.state.value.showsOpponent)
    }

    @Test("the computer waits while its level is shown, and moves once the game shows")
    func waitsWhileShowing() {
        // Five steps from level 4: level 3, and O starts that game (X started the first).
        for _ in 0..<5 { viewModel.nextOpponent.apply() }
        #expect(viewModel.state.value.opponent == .computer(.fallible))
        let starter = viewModel.board.value.starter
        scheduler.advance(by: .milliseconds(1400))
        #expect(viewModel.board.value.moveCount == 0)
        scheduler.advance(by: .milliseconds(100 + 600))
        #expect(viewModel.board.value.moveCount == (starter == .o ? 1 : 0))
    }

    @Test("each pairing keeps its own score")
    func scorePerPairing() {
        // The computer at level 4 cannot lose; play until it wins or draws.
        while !viewModel.board.value.isOver {
            if let cell = Position.all.first(where: { viewModel.board.value.canMakeMove(at: $0) }), viewModel.turn.value == .x {
                input.send(cell)
            }
            scheduler.advance(by: .milliseconds(600))
        }
        let againstComputer = viewModel.score.value
        #expect(againstComputer.xWins == 0 && againstComputer.oWins + againstComputer.draws == 1)
        viewModel.nextOpponent.apply()  // the learner
        #expect(viewModel.score.value == Score())
        viewModel.nextOpponent.apply()  // two players
        #expect(viewModel.score.value == Score())
        for _ in 0..<4 { viewModel.nextOpponent.apply() }  // level 4 again
        #expect(viewModel.score.value == againstComputer)
        #expect(viewModel.snapshot.value.scores == [.computer(.perfect): againstComputer])
    }

    private func play(_ positions: Position...) {
        for position in positions {
            input.send(position)
            scheduler.advance(by: .milliseconds(700))
        }
    }
}

/// Every value a signal sends, in order.
final class Recorded<Value: Sendable>: Sendable {
    private let store = Protected<[Value]>([])
    var values: [Value] { store.value }
    func record(_ signal: Signal<Value>) {
        signal.observeValues { [store] value in store.withValue { $0.append(value) } }
    }
}
