import Appliance
import Benchmark
import Devices
import GPIO
import Reactive
import TicTacToe

// One move, measured two ways in the same run:
//
// - "press to frame (full stack)": a button line on the simulated chip goes low, and the clock
//   advances one scan step at a time until the chip's LED lines light that cell. That covers the
//   edge event, the hop onto the scheduler, debouncing, the merged positions signal, the view
//   model, the frame property, the binding into the matrix and the scan writes.
// - "move (rules only)": the same move as a direct call into `Board.playing(_:)`: the baseline.
//
// Each sample is one move; games are replayed from a fixed list (X wins, then O, then a draw),
// with the new-game press, button release and debounce settling done outside the measurement.

private let games: [[Int]] = [
    [0, 1, 4, 2, 8],                   // X wins on the diagonal
    [4, 0, 1, 2, 7],                   // O starts and wins column 1
    [0, 1, 2, 4, 3, 5, 7, 6, 8],       // a draw (X starts)
]

private final class Player: @unchecked Sendable {
    let scheduler = TestScheduler()
    let chip: SimulatedChip
    let board: GameBoard
    let pins = PinMap.standard
    let rowPeriod: Duration
    var game = 0
    var move = 0

    init() {
        chip = SimulatedChip(clock: scheduler, historyCapacity: 1024)
        let settings = BoardSettings()
        rowPeriod = settings.scanRowPeriod
        do {
            board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler)
        } catch {
            fatalError("benchmark board failed to start: \(error)")
        }
        board.start()
        scheduler.advance(by: .milliseconds(10))
    }

    /// The next cell to press, starting a new game when the last one is over.
    func nextCell() -> Position {
        if move == games[game].count {
            move = 0
            game = (game + 1) % games.count
            let line = pins.newGameButton
            chip.drive(line, to: .low)
            scheduler.advance(by: .milliseconds(50))
            chip.drive(line, to: nil)
            scheduler.advance(by: .milliseconds(50))
        }
        defer { move += 1 }
        return Position.all[games[game][move]]
    }

    /// Whether the LED lines light `cell` right now (its row on and one of its columns on).
    func lights(_ cell: Position) -> Bool {
        let levels = chip.outputLevels
        return levels[pins.rows[cell.row]] == .high
            && (levels[pins.redColumns[cell.column]] == .high || levels[pins.greenColumns[cell.column]] == .high)
    }

    /// Presses `cell` and advances scan step by step until it is lit. Returns the steps taken.
    func pressUntilLit(_ cell: Position) -> Int {
        chip.drive(pins.button(for: cell), to: .low)
        scheduler.advance()
        var steps = 0
        while !lights(cell) {
            scheduler.advance(by: rowPeriod)
            steps += 1
            precondition(steps < 10, "the pressed cell never lit")
        }
        return steps
    }

    func release(_ cell: Position) {
        chip.drive(pins.button(for: cell), to: nil)
        scheduler.advance(by: .milliseconds(30))
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 5_000)

    Benchmark("press to frame (full stack, simulated chip)") { benchmark in
        let player = Player()
        for _ in benchmark.scaledIterations {
            let cell = player.nextCell()
            benchmark.startMeasurement()
            blackHole(player.pressUntilLit(cell))
            benchmark.stopMeasurement()
            player.release(cell)
        }
    }

    Benchmark("move (rules only, baseline)") { benchmark in
        var board = Board()
        var game = 0, move = 0
        for _ in benchmark.scaledIterations {
            if move == games[game].count {
                move = 0
                game = (game + 1) % games.count
                board = Board(starter: board.starter.opponent)
            }
            let cell = Position.all[games[game][move]]
            move += 1
            benchmark.startMeasurement()
            board = (try? board.playing(cell)) ?? board
            benchmark.stopMeasurement()
            blackHole(board)
        }
    }
}
