import Basics
import TestSupport
import Lights
import Reactive
import TicTacToe
import Testing
@testable import ViewModel

/// The frame as a compact picture: three rows of cell symbols, then the status LEDs.
private func picture(_ frame: Frame) -> String { frame.description }

@Suite("Game view model")
struct GameViewModelTests {
    let scheduler = TestScheduler()
    let presses: Signal<Position>
    let input: Signal<Position>.Input
    let viewModel: GameViewModel
    let timings = GameTimings(illegalFlash: .milliseconds(400), blinkHalfPeriod: .milliseconds(400), idleSleep: .seconds(60))

    init() {
        (presses, input) = Signal<Position>.pipe()
        viewModel = GameViewModel(positions: presses, timings: timings, scheduler: scheduler, players: PlayerNames(x: "Alice", o: "Bob"))
    }

    private func play(_ positions: Position...) {
        for position in positions {
            input.send(position)
            scheduler.advance(by: .milliseconds(10))
        }
    }

    @Test("a new game is dark with the starter's LED on")
    func newGame() {
        #expect(viewModel.frame.value == Frame(cells: Array(repeating: .off, count: 9), xStatus: true, oStatus: false))
        #expect(viewModel.turn.value == .x)
        #expect(viewModel.canMakeMove.value)
        #expect(!viewModel.newGame.isEnabled.value)
        #expect(viewModel.startOver.isEnabled.value)
    }

    @Test("step by step: each move lights the mover's colour and passes the turn")
    func stepByStep() {
        play(p(1, 1))
        #expect(picture(viewModel.frame.value) == ". . .\n. R .\n. . .\nX:off O:dim")
        #expect(viewModel.turn.value == .o)
        play(p(0, 0))
        #expect(picture(viewModel.frame.value) == "g . .\n. R .\n. . .\nX:on O:off")
        #expect(viewModel.turn.value == .x)
        #expect(viewModel.board.value[p(0, 0)] == .o)
    }

    @Test("an occupied cell flickers amber briefly (on and off every 50 ms, for 400 ms) and changes nothing")
    func illegalFlash() {
        play(p(1, 1))
        let before = viewModel.board.value
        input.send(p(1, 1))
        #expect(viewModel.flashingCell.value == p(1, 1))
        #expect(picture(viewModel.frame.value) == ". . .\n. A .\n. . .\nX:off O:dim")
        #expect(viewModel.board.value == before)
        var seen: [LEDColor] = []
        for _ in 0..<8 {
            scheduler.advance(by: .milliseconds(25))
            seen.append(viewModel.frame.value.cells[4])
            scheduler.advance(by: .milliseconds(25))
        }
        #expect(seen == [.amber, .red, .amber, .red, .amber, .red, .amber, .red], "between flickers, the X beneath")
        scheduler.advance(by: .milliseconds(1))
        #expect(picture(viewModel.frame.value) == ". . .\n. R .\n. . .\nX:off O:dim")
        #expect(viewModel.turn.value == .o)
    }

    @Test("the same cell refused again and again, faster than the flicker, still flickers: never a steady amber")
    func drummedRefusal() {
        play(p(1, 1))
        var amberRun = 0, longestAmberRun = 0, darkPhases = 0
        for step in 0..<60 {
            if step % 3 == 0 { input.send(p(1, 1)) }  // a press every 30 ms
            scheduler.advance(by: .milliseconds(10))
            let amber = viewModel.frame.value.cells[4] == .amber
            amberRun = amber ? amberRun + 10 : 0
            longestAmberRun = max(longestAmberRun, amberRun)
            if !amber { darkPhases += 1 }
        }
        #expect(longestAmberRun <= 50, "lit for \(longestAmberRun) ms at a stretch")
        #expect(darkPhases >= 25)
    }

    @Test("a win blinks the winning line and the winner's LED; the rest stays steady")
    func winBlinks() {
        // X takes the anti-diagonal; O plays (0,0) and (1,0).
        play(p(0, 2), p(0, 0), p(1, 1), p(1, 0), p(2, 0))
        #expect(viewModel.winner.value == .x)
        #expect(viewModel.winningLines.value.map(\.kind) == [.antiDiagonal])
        #expect(!viewModel.canMakeMove.value)
        let on = viewModel.frame.value
        #expect(picture(on) == "g . R\ng R .\nR . .\nX:on O:off")
        scheduler.advance(by: .milliseconds(400))
        #expect(picture(viewModel.frame.value) == "g . .\ng . .\n. . .\nX:off O:off")
        scheduler.advance(by: .milliseconds(400))
        #expect(viewModel.frame.value == on)
        #expect(viewModel.score.value == Score(xWins: 1))
    }

    @Test("a draw blinks every cell and both LEDs")
    func drawBlinks() {
        play(p(0, 0), p(0, 1), p(0, 2), p(1, 1), p(1, 0), p(1, 2), p(2, 1), p(2, 0), p(2, 2))
        #expect(viewModel.isDraw.value)
        #expect(picture(viewModel.frame.value) == "R g R\nR g g\ng R R\nX:on O:dim")
        scheduler.advance(by: .milliseconds(400))
        #expect(viewModel.frame.value == .dark)
        #expect(viewModel.score.value == Score(draws: 1))
    }

    @Test("presses after the end are ignored")
    func afterTheEnd() {
        play(p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2))
        let board = viewModel.board.value
        let events = Protected<[GameEvent]>([])
        viewModel.events.observeValues { event in events.withValue { $0.append(event) } }
        play(p(2, 2))
        #expect(viewModel.board.value == board)
        #expect(viewModel.flashingCell.value == nil)
        #expect(events.value == [.ignored(p(2, 2))])
    }

    @Test("new game: a short press works only once the game is over; the starter alternates")
    func newGameAction() {
        play(p(0, 0))
        #expect(viewModel.newGame.apply() == nil)
        #expect(viewModel.board.value.moveCount == 1)
        play(p(1, 0), p(0, 1), p(1, 1), p(0, 2))
        #expect(viewModel.newGame.isEnabled.value)
        #expect(viewModel.newGame.apply() != nil)
        #expect(viewModel.board.value.moveCount == 0)
        #expect(viewModel.turn.value == .o)
        #expect(picture(viewModel.frame.value) == ". . .\n. . .\n. . .\nX:off O:dim")
        #expect(!viewModel.newGame.isEnabled.value)
        // A hold restarts mid-game; the starter alternates again.
        play(p(1, 1))
        viewModel.startOver.apply()
        #expect(viewModel.board.value.moveCount == 0)
        #expect(viewModel.turn.value == .x)
        scheduler.advance(by: .seconds(5))
        #expect(picture(viewModel.frame.value) == ". . .\n. . .\n. . .\nX:on O:off")
    }

    @Test("idle: the lights sleep, and the first press only wakes them")
    func idleSleep() {
        play(p(1, 1))
        scheduler.advance(by: .seconds(59))
        #expect(!viewModel.isAsleep.value)
        scheduler.advance(by: .seconds(1))
        #expect(viewModel.isAsleep.value)
        #expect(viewModel.frame.value == .dark)
        #expect(viewModel.newGame.isEnabled.value)  // any press wakes
        play(p(0, 0))
        #expect(!viewModel.isAsleep.value)
        #expect(viewModel.board.value[p(0, 0)] == nil)
        #expect(picture(viewModel.frame.value) == ". . .\n. R .\n. . .\nX:off O:dim")
        play(p(0, 0))
        #expect(viewModel.board.value[p(0, 0)] == .o)
        // New game while asleep: only wakes.
        scheduler.advance(by: .seconds(61))
        viewModel.startOver.apply()
        #expect(viewModel.board.value.moveCount == 2)
        #expect(!viewModel.isAsleep.value)
    }

    @Test("events tell the story with moves, refusals and the result")
    func events() {
        let events = Protected<[GameEvent]>([])
        viewModel.events.observeValues { event in events.withValue { $0.append(event) } }
        play(p(0, 0), p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2))
        let line = WinningLines([WinningLine.all[0]])
        #expect(events.value == [
            .moved(.x, p(0, 0)), .refused(p(0, 0), .cellOccupied(p(0, 0), by: .x)), .moved(.o, p(1, 0)),
            .moved(.x, p(0, 1)), .moved(.o, p(1, 1)), .moved(.x, p(0, 2)), .finished(.won(by: .x, along: line)),
        ])
        #expect(viewModel.players.matchTitle == "Alice (X) vs Bob (O)")
    }

    @Test("the view model is freed with its last reference, its timers with it")
    func noRetainCycle() {
        weak var weakViewModel: GameViewModel?
        let (signal, input) = Signal<Position>.pipe()
        do {
            let viewModel = GameViewModel(positions: signal, timings: timings, scheduler: scheduler)
            weakViewModel = viewModel
            input.send(p(0, 0))
            _ = viewModel.frame.value
        }
        #expect(weakViewModel == nil)
        scheduler.advance(by: .seconds(120))
        #expect(scheduler.pendingCount == 0)
    }
}

@Suite("Frame renderer")
struct FrameRendererTests {
    @Test("asleep is dark whatever the board")
    func asleep() throws {
        let board = try Board().playing(Position.all[0])
        var state = SessionState(snapshot: GameSnapshot(board: board))
        state.isAsleep = true
        #expect(FrameRenderer.frame(of: state) == .dark)
    }

    /// X in the corner, O in the middle, X on the right of the top row; O to move.
    private func threeMoves() throws -> SessionState {
        let board = try Board().playing(Position.all[0]).playing(Position.all[4]).playing(Position.all[2])
        return SessionState(snapshot: GameSnapshot(board: board))
    }

    @Test("colour and brightness: O's marks and status LED dim, X's full; the amber flash full")
    func brightnessCue() throws {
        var state = try threeMoves()
        let frame = FrameRenderer.frame(of: state, marks: .colourAndBrightness)
        #expect(frame.description == "R . R\n. g .\n. . .\nX:off O:dim")
        state.flashing = Position.all[4]
        let flashed = FrameRenderer.frame(of: state, marks: .colourAndBrightness)
        #expect(flashed.cells[4] == .amber && flashed.cells.brightness(at: 4) == .full)
        // X to move: its LED at full brightness.
        let xTurn = FrameRenderer.frame(of: SessionState(snapshot: GameSnapshot(board: Board())), marks: .colourAndBrightness)
        #expect(xTurn.description.hasSuffix("X:on O:off") && !xTurn.hasDimStatus)
    }

    @Test("colour only: nothing is dim")
    func colourOnly() throws {
        let frame = FrameRenderer.frame(of: try threeMoves(), marks: .colour)
        #expect(frame.description == "R . R\n. G .\n. . .\nX:off O:on")
        #expect(!frame.cells.hasDim && !frame.hasDimStatus)
    }

    @Test("the opponent chooser shows O's cells as O's marks: dim with colour and brightness")
    func opponentChooser() {
        #expect(FrameRenderer.frame(showing: .person, marks: .colourAndBrightness).description == "R . g\n. . .\n. . .\nX:off O:off")
        #expect(FrameRenderer.frame(showing: .computer(.perfect), marks: .colourAndBrightness).description == "g g g\ng . .\n. . .\nX:off O:off")
        #expect(FrameRenderer.frame(showing: .computer(.perfect), marks: .colour).description == "G G G\nG . .\n. . .\nX:off O:off")
    }
}
