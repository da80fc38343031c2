import Basics
import Benchmark
import Devices
import GPIO
import Lights
import Presentation
import Reactive
import SimulatedGPIO
import TicTacToe
import WiredBoard

// The game loop's costs, all measured in one run so their ratios hold on a noisy machine:
//
// (a) "press to row writes (full stack)": a button line of the simulated chip goes low, the
//     scheduler runs the edge through the button pad, the debouncer, the merged positions, the
//     view model, the frame and the bindings into the matrix and status LEDs, then scan steps
//     run until the chip's lines light the pressed cell.
// (b) "press to row writes (imperative baseline)": the same work by direct calls of the same
//     pure functions (debounce the edge, play the move, render the frame, compute the row
//     writes, write the status LEDs, then scan steps until the cell is lit), with no signals,
//     properties or scheduler. (a)/(b) is what the reactive plumbing costs.
// (c) "scan step (lit frame)": one steady scan step, blank and row write, through the scheduler.
// (d) "dark board for a virtual minute": the board has gone to sleep; the metric "actions" is
//     how many scheduled actions ran in the minute after the last frame went dark.
// (e) "one computer move (perfect level)": the computer's choice on a board, taken in turn from
//     every position reachable in play with a move to make (the value table built beforehand,
//     as it is once per process).
//
// Both press benchmarks write to a simulated chip that counts writes but keeps no history, and
// replay the same games; new-game presses, releases and debounce settling happen outside the
// measurement.

private let games: [[Int]] = [
    [0, 1, 4, 2, 8],                   // X wins on the diagonal
    [4, 0, 1, 2, 7],                   // O starts and wins column 1
    [0, 1, 2, 4, 3, 5, 7, 6, 8],       // a draw (X starts)
]

/// The next cell of the replayed games, and whether a new game must start first.
private struct GameReplay {
    var game = 0
    var move = 0

    mutating func next() -> (cell: Position, newGame: Bool) {
        var newGame = false
        if move == games[game].count {
            move = 0
            game = (game + 1) % games.count
            newGame = true
        }
        defer { move += 1 }
        return (Position.all[games[game][move]], newGame)
    }
}

private let pins = PinMap.standard

/// Whether `chip`'s LED lines light `cell` now: its row on and one of its columns on.
private func lights(_ cell: Position, on chip: SimulatedChip) -> Bool {
    pins.color(ofCell: cell.index, at: chip.outputLevels).isLit
}

/// The whole stack on a simulated chip in virtual time.
private final class FullStack: @unchecked Sendable {
    let scheduler = TestScheduler()
    let chip: SimulatedChip
    let board: GameBoard
    let rowPeriod: Duration
    var replay = GameReplay()

    init(settings: BoardSettings = BoardSettings()) {
        chip = SimulatedChip(clock: scheduler, historyCapacity: 0)
        rowPeriod = settings.scanRowPeriod
        do {
            board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler)
        } catch {
            fatalError("benchmark board failed to start: \(error)")
        }
        board.start()
        scheduler.advance(by: .milliseconds(10))
    }

    func nextCell() -> Position {
        let (cell, newGame) = replay.next()
        if newGame {
            chip.drive(pins.newGameButton, to: .low)
            scheduler.advance(by: .milliseconds(50))
            chip.drive(pins.newGameButton, to: nil)
            scheduler.advance(by: .milliseconds(100))
        }
        return cell
    }

    /// Presses `cell` and runs scan steps until it is lit. Returns the steps taken.
    func pressUntilLit(_ cell: Position) -> Int {
        chip.drive(pins.button(for: cell), to: .low)
        scheduler.advance()
        var steps = 0
        while !lights(cell, on: chip) {
            scheduler.advance(by: rowPeriod)
            steps += 1
            precondition(steps < 10, "the pressed cell never lit")
        }
        return steps
    }

    func release(_ cell: Position) {
        chip.drive(pins.button(for: cell), to: nil)
        scheduler.advance(by: .milliseconds(100))
    }
}

/// The same work as a plain program: direct calls of the same pure functions (Debouncer,
/// Board, FrameRenderer, RowScan), one struct of state, no reactive plumbing.
private struct ImperativeBoard {
    let chip: SimulatedChip
    let outputs: any OutputLines
    var debouncers: [Debouncer]
    var state = SessionState(snapshot: GameSnapshot(board: Board(), nextStarter: .o))
    var scan = RowScan(pins: pins)
    var statusWrite = [LineSetting(pins.xStatus, .low), LineSetting(pins.oStatus, .low)]
    var row = 2
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    var replay = GameReplay()
    let cellByOffset: [Int]

    init() {
        let clock = TestScheduler()
        chip = SimulatedChip(clock: clock, historyCapacity: 0)
        do {
            outputs = try chip.requestOutputs(OutputConfiguration(
                offsets: pins.outputOffsets, initialLevel: .low, consumer: "baseline"))
        } catch {
            fatalError("baseline lines: \(error)")
        }
        debouncers = Array(repeating: Debouncer(window: .milliseconds(20), initialLevel: .high), count: 9)
        var cellByOffset = Array(repeating: -1, count: 64)
        for (index, offset) in pins.cellButtons.enumerated() { cellByOffset[Int(offset.rawValue)] = index }
        self.cellByOffset = cellByOffset
    }

    mutating func nextCell() -> Position {
        let (cell, newGame) = replay.next()
        if newGame { state.board = Board(starter: state.board.starter.opponent) }
        return cell
    }

    /// One edge of a button line: debounce, play, render, recompute the row writes.
    mutating func handle(_ event: EdgeEvent) {
        let index = cellByOffset[Int(event.offset.rawValue)]
        guard index >= 0, let level = debouncers[index].edge(to: event.edge.level, at: event.timestamp),
              pins.buttonPolarity.isActive(level),
              let next = try? state.board.playing(Position.all[index]) else { return }
        state.board = next
        let frame = FrameRenderer.frame(of: state)
        scan.show(frame.cells)
        statusWrite[0].level = pins.statusPolarity.level(active: frame.xStatus)
        statusWrite[1].level = pins.statusPolarity.level(active: frame.oStatus)
        try? outputs.set(statusWrite)
    }

    mutating func scanStep() {
        row = (row + 1) % 3
        try? outputs.set(scan.blank)
        if scan.isLit { try? outputs.set(scan.rows[row]) }
    }

    mutating func pressUntilLit(_ cell: Position) -> Int {
        handle(EdgeEvent(offset: pins.button(for: cell), edge: .falling, timestamp: now))
        var steps = 0
        while !lights(cell, on: chip) {
            scanStep()
            steps += 1
            precondition(steps < 10, "the pressed cell never lit")
        }
        return steps
    }

    mutating func release(_ cell: Position) {
        now += .milliseconds(50)
        handle(EdgeEvent(offset: pins.button(for: cell), edge: .rising, timestamp: now))
        now += .milliseconds(50)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 5_000)

    Benchmark("(a) press to row writes (full stack)") { benchmark in
        let stack = FullStack()
        for _ in benchmark.scaledIterations {
            let cell = stack.nextCell()
            benchmark.startMeasurement()
            blackHole(stack.pressUntilLit(cell))
            benchmark.stopMeasurement()
            stack.release(cell)
        }
    }

    Benchmark("(b) press to row writes (imperative baseline)") { benchmark in
        var baseline = ImperativeBoard()
        for _ in benchmark.scaledIterations {
            let cell = baseline.nextCell()
            benchmark.startMeasurement()
            blackHole(baseline.pressUntilLit(cell))
            benchmark.stopMeasurement()
            baseline.release(cell)
        }
    }

    Benchmark("(c) scan step (lit frame)") { benchmark in
        let stack = FullStack()
        let cell = stack.nextCell()
        _ = stack.pressUntilLit(cell)
        stack.release(cell)
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            stack.scheduler.advance(by: stack.rowPeriod)
            benchmark.stopMeasurement()
        }
        blackHole(stack.chip.outputWriteCount)
    }

    Benchmark(
        "(d) dark board for a virtual minute",
        configuration: .init(
            metrics: [.wallClock, .custom("actions", polarity: .prefersSmaller, useScalingFactor: false)],
            maxDuration: .seconds(3), maxIterations: 20)
    ) { benchmark in
        var settings = BoardSettings()
        settings.game.idleSleep = .seconds(10)
        let stack = FullStack(settings: settings)
        let cell = stack.nextCell()
        _ = stack.pressUntilLit(cell)
        stack.release(cell)
        stack.scheduler.advance(by: .seconds(11))
        precondition(stack.board.viewModel.isAsleep.value && stack.board.viewModel.frame.value.isDark,
                     "the board should be asleep and dark by now")
        for _ in benchmark.scaledIterations {
            let before = stack.scheduler.completedActions
            benchmark.startMeasurement()
            stack.scheduler.advance(by: .seconds(60))
            benchmark.stopMeasurement()
            benchmark.measurement(.custom("actions", polarity: .prefersSmaller, useScalingFactor: false),
                                  stack.scheduler.completedActions - before)
        }
    }

    Benchmark("(e) one computer move (perfect level)") { benchmark in
        var positions: [Board] = []
        var seen: Set<Board> = []
        func visit(_ board: Board) {
            guard board.turn != nil, seen.insert(board).inserted else { return }
            positions.append(board)
            for cell in Position.all { if let next = try? board.playing(cell) { visit(next) } }
        }
        visit(Board(starter: .x))
        var computer = ComputerPlayer(level: .perfect, random: SeededRandom(seed: 1))
        blackHole(computer.move(on: positions[0]))  // the table, once per process
        var index = 0
        for _ in benchmark.scaledIterations {
            let board = positions[index]
            index = (index + 1) % positions.count
            benchmark.startMeasurement()
            blackHole(computer.move(on: board))
            benchmark.stopMeasurement()
        }
    }
}
