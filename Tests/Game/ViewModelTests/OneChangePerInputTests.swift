import Basics
import Lights
import Reactive
import TestSupport
import Testing
import TicTacToe
@testable import ViewModel

/// Counts what the view model sends for one input: new frames, new snapshots.
final class Outputs: Sendable {
    let frames = Protected<[Frame]>([])
    let snapshots = Protected<[GameSnapshot]>([])
    private let observations: CompositeDisposable

    init(_ viewModel: GameViewModel) {
        let frames = frames, snapshots = snapshots
        observations = CompositeDisposable([
            viewModel.frame.signal.observeValues { frame in frames.withValue { $0.append(frame) } },
            viewModel.snapshot.signal.observeValues { snapshot in snapshots.withValue { $0.append(snapshot) } },
        ])
    }

    /// What `input` sent, and then forgets it.
    func after(_ input: () -> Void) -> (frames: [Frame], snapshots: [GameSnapshot]) {
        frames.withValue { $0 = [] }
        snapshots.withValue { $0 = [] }
        input()
        return (frames.value, snapshots.value)
    }

    deinit { observations.dispose() }
}

@Suite("One input, one change")
struct OneChangePerInputTests {
    let scheduler = TestScheduler()
    let presses: Signal<Position>
    let input: Signal<Position>.Input
    let viewModel: GameViewModel
    let outputs: Outputs
    let timings = GameTimings(illegalFlash: .milliseconds(400), blinkHalfPeriod: .milliseconds(400), idleSleep: .seconds(60))

    init() {
        (presses, input) = Signal<Position>.pipe()
        viewModel = GameViewModel(positions: presses, timings: timings, scheduler: scheduler)
        outputs = Outputs(viewModel)
    }

    private func play(_ positions: [Position]) {
        for position in positions { input.send(position) }
    }

    /// X wins along the top row: X (0,0), O (1,0), X (0,1), O (1,1), X (0,2).
    private let xWinsTopRow = [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)]

    @Test("new game during the blink's off phase: one frame, the new game's, never the old line with X's LED")
    func newGameDuringBlinkOff() {
        play(xWinsTopRow)
        scheduler.advance(by: .milliseconds(400))
        #expect(!viewModel.state.value.blinkOn)
        let sent = outputs.after { viewModel.newGame.apply() }
        #expect(sent.frames.count == 1)
        #expect(sent.frames.first?.description == ". . .\n. . .\n. . .\nX:off O:dim")
        #expect(sent.snapshots.count == 1)
    }

    @Test("a winning move: one snapshot, already with the new score; one frame")
    func winningMove() {
        play(Array(xWinsTopRow.dropLast()))
        let sent = outputs.after { input.send(p(0, 2)) }
        #expect(sent.snapshots.count == 1)
        #expect(sent.snapshots.first?.score == Score(xWins: 1))
        #expect(sent.snapshots.first?.board.winner == .x)
        #expect(sent.frames.count == 1)
    }

    @Test("a legal press during the amber flash: one frame, with the mark and without the amber")
    func legalPressDuringFlash() {
        play([p(1, 1), p(1, 1)])
        #expect(viewModel.flashingCell.value == p(1, 1))
        let sent = outputs.after { input.send(p(0, 0)) }
        #expect(sent.frames.count == 1)
        #expect(sent.frames.first?.description == "g . .\n. R .\n. . .\nX:on O:off")
        #expect(sent.snapshots.count == 1)
    }

    @Test("every other kind of input: at most one frame and one snapshot, exactly as many as changed")
    func everyInput() {
        var sent = outputs.after { input.send(p(1, 1)) }
        #expect((sent.frames.count, sent.snapshots.count) == (1, 1), "a legal move")
        sent = outputs.after { input.send(p(1, 1)) }
        #expect((sent.frames.count, sent.snapshots.count) == (1, 0), "a refused press")
        for step in 1..<Int(timings.illegalFlash / timings.flickerHalfPeriod) {
            sent = outputs.after { scheduler.advance(by: timings.flickerHalfPeriod) }
            #expect((sent.frames.count, sent.snapshots.count) == (1, 0), "flicker step \(step)")
        }
        // The last step before the end is a dark phase, which shows the X beneath: the end of
        // the flash changes the state and not the picture.
        sent = outputs.after { scheduler.advance(by: timings.flickerHalfPeriod) }
        #expect((sent.frames.count, sent.snapshots.count) == (0, 0), "the end of the flash")
        #expect(viewModel.flashingCell.value == nil)
        sent = outputs.after { viewModel.newGame.apply() }
        #expect((sent.frames.count, sent.snapshots.count) == (0, 0), "a short new game mid-game")
        sent = outputs.after { viewModel.startOver.apply() }
        #expect((sent.frames.count, sent.snapshots.count) == (1, 1), "a held new game mid-game")
        sent = outputs.after { scheduler.advance(by: timings.idleSleep - .milliseconds(1)) }
        #expect((sent.frames.count, sent.snapshots.count) == (0, 0), "idle, not yet asleep")
        sent = outputs.after { scheduler.advance(by: .milliseconds(1)) }
        #expect((sent.frames.count, sent.snapshots.count) == (1, 0), "falling asleep")
        #expect(sent.frames.first == .dark)
        sent = outputs.after { input.send(p(2, 2)) }
        #expect((sent.frames.count, sent.snapshots.count) == (1, 0), "a press that only wakes")
        play(xWinsTopRow)
        sent = outputs.after { input.send(p(2, 2)) }
        #expect((sent.frames.count, sent.snapshots.count) == (0, 0), "a press after the end")
        for phase in 0..<4 {
            sent = outputs.after { scheduler.advance(by: timings.blinkHalfPeriod) }
            #expect((sent.frames.count, sent.snapshots.count) == (1, 0), "blink phase \(phase)")
        }
    }

    @Test("any press is activity: a refused short new game restarts the idle countdown")
    func refusedNewGameIsActivity() {
        input.send(p(1, 1))
        scheduler.advance(by: .seconds(50))
        let events = Protected<[GameEvent]>([])
        let observation = viewModel.events.observeValues { event in events.withValue { $0.append(event) } }
        defer { observation.dispose() }
        #expect(viewModel.newGame.apply() == nil)
        #expect(events.value == [.newGameNeedsHold])
        scheduler.advance(by: .seconds(50))
        #expect(!viewModel.isAsleep.value, "asleep 100 s after the first press, though new game was pressed at 50 s")
        scheduler.advance(by: .seconds(10))
        #expect(viewModel.isAsleep.value)
    }

    @Test("asleep, the view model schedules nothing; woken, the blink and the countdown resume")
    func nothingScheduledWhileAsleep() {
        play(xWinsTopRow)
        scheduler.advance(by: timings.idleSleep)
        #expect(viewModel.isAsleep.value)
        #expect(scheduler.pendingCount == 0)
        let before = scheduler.completedActions
        scheduler.advance(by: .seconds(600))
        #expect(scheduler.completedActions == before)
        input.send(p(2, 2))
        #expect(!viewModel.isAsleep.value)
        #expect(scheduler.pendingCount == 2, "the blink and the idle countdown")
    }
}

@Suite("Every winning line")
struct EveryWinningLineTests {
    /// Every game to its end from `starter`, with its final board.
    private func terminalBoards(from starter: Player) -> Set<Board> {
        var ends = Set<Board>()
        func explore(_ board: Board) {
            for position in Position.all where board.canMakeMove(at: position) {
                guard let next = try? board.playing(position) else { continue }
                if next.isOver { ends.insert(next) } else { explore(next) }
            }
        }
        explore(Board(starter: starter))
        return ends
    }

    @Test("over every terminal position: all completed lines are reported, blink and are named", arguments: [Player.x, .o])
    func everyTerminalPosition(starter: Player) {
        let ends = terminalBoards(from: starter)
        #expect(ends.count == 958)
        var twoLineWins = 0
        for board in ends {
            guard let winner = board.winner else {
                #expect(board.isDraw)
                continue
            }
            let owned = WinningLine.all.filter { line in line.positions.allSatisfy { board[$0] == winner } }
            #expect(Array(board.winningLines) == owned, "\(board)")
            if owned.count > 1 { twoLineWins += 1 }
            var state = SessionState(snapshot: GameSnapshot(board: board))
            state.blinkOn = false
            let off = FrameRenderer.frame(of: state)
            for position in Position.all where board[position] != nil {
                let onALine = owned.contains { $0.contains(position) }
                #expect((off.cells[position.index] == .off) == onALine, "\(position) of \(board)")
            }
            let text = GameEvent.finished(board.outcome).text(players: PlayerNames())
            for line in owned { #expect(text.contains("the \(line)"), "\(text)") }
        }
        #expect(twoLineWins == 22)
    }

    @Test("a mark that closes two lines names both as a player would")
    func twoLinesNamed() throws {
        // X (0,1), O (1,1), X (0,2), O (1,2), X (1,0), O (2,1), X (2,0), O (2,2), X (0,0).
        let board = try Board().playing([p(0, 1), p(1, 1), p(0, 2), p(1, 2), p(1, 0), p(2, 1), p(2, 0), p(2, 2), p(0, 0)])
        #expect(board.winningLines.count == 2)
        #expect(GameEvent.finished(board.outcome).text(players: PlayerNames()) == "X wins along the top row and the left column!")
    }
}
