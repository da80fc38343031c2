import Basics
import Benchmark
import Devices
import GPIO
import Lights
import ViewModel
import Reactive
import SimulatedGPIO
import TicTacToe
import WiredBoard

// The game loop's costs, all measured in one run so their ratios hold on a noisy machine:
//
// (a) "press to row writes (full stack)": a button line of the simulated chip goes low, the
//     scheduler runs the edge through the button pad, the debouncer, the pad's positions, the
//     view model, the frame and the binding into the LEDs, then one frame of the scan (three row
//     steps, in one of which the chip's lines light the pressed cell). One frame, not "until
//     lit", so that every press and every board does the same scan work; so with colour-only
//     marks (a dim O lights one frame in four, not in every one).
// (a′) the same on a counting chip (edges sent straight in, writes kept as one word and
//     counted): the program's own cost, without the simulated chip's bookkeeping.
// (b) "press to row writes (imperative baseline)": the same work by direct calls of the same
//     pure functions (debounce the edge, play the move, render the frame, compute the row
//     writes, write the status LEDs, then one frame of scan steps), with no signals,
//     properties or scheduler, on the simulated chip.
// (b′) the imperative baseline on the counting chip: it allocates nothing. (a′)/(b′) is what
//     the reactive plumbing costs; docs/BENCHMARKS.md holds the figures.
// (c) "scan step (X full and O dim lit)": one steady scan step, blank and row write, through the
//     scheduler, with the default marks; (c′) the same frame with colour-only marks: what
//     brightness costs the scan.
// (d) "dark board for a virtual minute": the board has gone to sleep; the metric "actions" is
//     how many scheduled actions ran in the minute after the last frame went dark.
// (e) "one computer move (perfect level)": the computer's choice on a board, taken in turn from
//     every position reachable in play with a move to make (the value table built beforehand,
//     as it is once per process).
//
// The board's API is measured by Benchmarks/Tools/PressCount (served-K, latency), not here:
// package-benchmark's malloc interposer corrupts the heap when other threads allocate while it
// counts (its free probes a header before each pointer; the API's server and clients allocate
// on threads of their own), which crashed a served benchmark in 5 runs of 5, and none of 5
// without the interposer. docs/BENCHMARKS.md has the figures.
//
// Both press benchmarks write to a simulated chip that counts writes but keeps no history, and
// replay the same games; new-game presses, releases and debounce settling happen outside the
// measurement.

import BoardUnderTest

/// Each iteration presses the next cell of the replayed games and measures until it is lit;
/// new games and releases happen outside the measurement.
///
/// One board for the whole benchmark: package-benchmark calls the closure once per iteration
/// (the scaling factor is one), and a board made inside it measured the first press of a new
/// board every time (always the same cell, the scan's first start, cold objects) instead of
/// the games' presses in turn.
private func pressBenchmark<Board: PressedBoard>(_ name: String, _ make: @escaping @Sendable () -> Board) {
    let held = HeldBoard(make())
    Benchmark(name) { benchmark in
        for _ in benchmark.scaledIterations {
            let cell = held.board.nextCell()
            benchmark.startMeasurement()
            blackHole(held.board.pressAndScanOneFrame(cell))
            benchmark.stopMeasurement()
            held.board.release(cell)
        }
    }
}

/// A board kept across the closure's calls. package-benchmark runs a benchmark's iterations one
/// after another on one thread, so nothing else touches it meanwhile.
private final class HeldBoard<Board: PressedBoard>: @unchecked Sendable {
    var board: Board
    init(_ board: Board) { self.board = board }
}

/// One scan step of a frame with a mark of each player, measured alone, on one stack for the
/// whole benchmark (see ``pressBenchmark(_:_:)``).
func scanStepBenchmark(_ name: String, marks: MarkStyle) {
    let stack = FullStack.scanning(marks: marks, chip: CountingChip())
    let period = stack.rowPeriod.nanoseconds
    Benchmark(name) { benchmark in
        for _ in benchmark.scaledIterations {
            // The test clock's `Duration` arithmetic is outside: it is not the scan's cost.
            let next = MonotonicInstant(nanoseconds: stack.scheduler.now.nanoseconds + period)
            benchmark.startMeasurement()
            stack.scheduler.advance(to: next)
            benchmark.stopMeasurement()
        }
        blackHole(stack.chip.writes)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 5_000)

    pressBenchmark("(a) press to row writes (full stack)") { FullStack() }

    pressBenchmark("(b) press to row writes (imperative baseline)") { ImperativeBoard(chip: SimulatedChip(clock: TestScheduler(), historyCapacity: 0)) }

    pressBenchmark("(a′) press to row writes (full stack, counting chip)") { FullStack(chip: CountingChip()) }

    pressBenchmark("(b′) press to row writes (imperative, counting chip)") { ImperativeBoard(chip: CountingChip()) }

    scanStepBenchmark("(c) scan step (X full and O dim lit, counting chip)", marks: .colourAndBrightness)

    scanStepBenchmark("(c′) scan step (X and O lit, colour only, counting chip)", marks: .colour)

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
        _ = stack.pressAndScanOneFrame(cell)
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

    // The positions and the walk through them last the whole benchmark (see pressBenchmark).
    let moves = HeldComputer(positions: positionsInPlay())
    Benchmark("(e) one computer move (perfect level)") { benchmark in
        for _ in benchmark.scaledIterations {
            let board = moves.next()
            benchmark.startMeasurement()
            blackHole(moves.computer.move(on: board))
            benchmark.stopMeasurement()
        }
    }
}

/// The perfect computer and the positions it is asked about, in turn, across the closure's calls.
private final class HeldComputer: @unchecked Sendable {
    var computer = ComputerPlayer(level: .perfect, random: SeededRandom(seed: 1))
    private let positions: [Board]
    private var index = 0

    init(positions: [Board]) {
        self.positions = positions
        blackHole(computer.move(on: positions[0]))  // the table, once per process
    }

    func next() -> Board {
        defer { index = (index + 1) % positions.count }
        return positions[index]
    }
}
