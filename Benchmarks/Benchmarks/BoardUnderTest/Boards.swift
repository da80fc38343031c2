// The boards the benchmarks press, shared by the package-benchmark suite (GameLoop) and the
// instruction count (PressCount). What each does is described at the top of GameLoop.swift.
import Basics
import Devices
import GPIO
import Lights
import ViewModel
import Reactive
import SimulatedGPIO
import TicTacToe
import WiredBoard

let games: [[Int]] = [
    [0, 1, 4, 2, 8],                   // X wins on the diagonal
    [4, 0, 1, 2, 7],                   // O starts and wins column 1
    [0, 1, 2, 4, 3, 5, 7, 6, 8],       // a draw (X starts)
]

/// The next cell of the replayed games, and whether a new game must start first.
public struct GameReplay {
    var game = 0
    var move = 0

    public init() {}

    public mutating func next() -> (cell: Position, newGame: Bool) {
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

let pins = PinMap.standard

/// Whether `chip`'s LED lines light `cell` now: its row on and one of its columns on.
func lights(_ cell: Position, on chip: some BenchmarkChip) -> Bool {
    pins.color(ofCell: cell.index, at: chip.outputLevels).isLit
}

extension SimulatedChip: BenchmarkChip {
    public func press(_ line: LineOffset, at time: MonotonicInstant) { drive(line, to: .low) }
    public func release(_ line: LineOffset, at time: MonotonicInstant) { drive(line, to: nil) }
}

/// The whole stack on a chip in virtual time.
public final class FullStack<Chip: BenchmarkChip>: @unchecked Sendable {
    public let scheduler: TestScheduler
    public let chip: Chip
    public let board: GameBoard
    public let rowPeriod: Duration
    private let rowPeriodNanoseconds: Int64
    var replay = GameReplay()

    /// Colour-only marks by default: the press benchmarks check that the pressed cell lights in
    /// the frame after the press, and a dim cell lights only one frame in four.
    public init(settings: BoardSettings = BoardSettings(marks: .colour), scheduler: TestScheduler = TestScheduler(), chip: Chip) {
        self.scheduler = scheduler
        self.chip = chip
        rowPeriod = settings.scanRowPeriod
        rowPeriodNanoseconds = settings.scanRowPeriod.nanoseconds
        do {
            board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler)
        } catch {
            fatalError("benchmark board failed to start: \(error)")
        }
        board.start()
        scheduler.advance(by: .milliseconds(10))
    }

    public func nextCell() -> Position {
        let (cell, newGame) = replay.next()
        if newGame {
            chip.press(pins.newGameButton, at: scheduler.now)
            scheduler.advance(by: .milliseconds(50))
            chip.release(pins.newGameButton, at: scheduler.now)
            scheduler.advance(by: .milliseconds(100))
        }
        return cell
    }

    public func pressAndScanOneFrame(_ cell: Position) -> Int {
        // The clock is read once: reading it takes the test clock's lock, the harness's cost and
        // not the program's (as is `Duration` arithmetic: the steps are in whole nanoseconds).
        var now = scheduler.now
        chip.press(pins.button(for: cell), at: now)
        scheduler.advance(to: now)
        var litSteps = 0
        for _ in 0..<3 {
            now.nanoseconds += rowPeriodNanoseconds
            scheduler.advance(to: now)
            if lights(cell, on: chip) { litSteps += 1 }
        }
        precondition(litSteps == 1, "the pressed cell was not lit once in a frame")
        return litSteps
    }

    public func release(_ cell: Position) {
        chip.release(pins.button(for: cell), at: scheduler.now)
        scheduler.advance(by: .milliseconds(100))
    }

    /// A press and release of `cell`, and time to show it.
    public func tap(_ cell: Position) {
        chip.press(pins.button(for: cell), at: scheduler.now)
        scheduler.advance(by: .milliseconds(50))
        release(cell)
    }

    /// A stack scanning a mark of each player, with `marks`: what the scan-step benchmarks time.
    public static func scanning(marks: MarkStyle, chip: Chip) -> FullStack {
        let stack = FullStack(settings: BoardSettings(marks: marks), chip: chip)
        for _ in 0..<2 { stack.tap(stack.nextCell()) }
        precondition(stack.board.lights.isScanning, "X and O should be lit")
        return stack
    }
}

extension FullStack {
    /// A stack with the default marks just after a new game with O to start: nothing lit but
    /// O's dim status LED (the first game won by X, then new game, as the replay goes on).
    public static func oToStart(chip: Chip) -> FullStack {
        let stack = FullStack(settings: BoardSettings(), chip: chip)
        for _ in 0..<games[0].count { stack.tap(stack.nextCell()) }
        _ = stack.nextCell()  // presses new game, and gives the next game's first cell, not pressed
        stack.scheduler.advance(by: .milliseconds(100))
        let shown = stack.board.lights.shownFrame
        precondition(!shown.cells.isLit && !shown.xStatus && shown.oStatus && shown.hasDimStatus, "O to start: \(shown)")
        return stack
    }
}

extension FullStack where Chip == SimulatedChip {
    /// On a simulated chip that counts writes but keeps no history.
    public convenience init(settings: BoardSettings = BoardSettings(marks: .colour)) {
        let scheduler = TestScheduler()
        self.init(settings: settings, scheduler: scheduler, chip: SimulatedChip(clock: scheduler, historyCapacity: 0))
    }
}

/// The same work as a plain program: direct calls of the same pure functions (Debouncer,
/// Board, FrameRenderer, RowScan), one struct of state, no reactive plumbing.
public struct ImperativeBoard<Chip: BenchmarkChip> {
    let chip: Chip
    let outputs: any OutputLines
    var debouncers: [Debouncer]
    var state = SessionState(snapshot: GameSnapshot(board: Board(), nextStarter: .o))
    var scan = RowScan(pins: pins)
    /// As the full stack's: colour only (see ``FullStack``).
    let marks = MarkStyle.colour
    var row = 2
    var dimFrame = 0
    /// The dim cycle of the default LEDs, as the full stack's settings have it.
    let dimFrames = DimCycle.standard.frames
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    var replay = GameReplay()
    let cellByOffset: [Int]

    public init(chip: Chip) {
        self.chip = chip
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

    public mutating func nextCell() -> Position {
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
        scan.show(FrameRenderer.frame(of: state, marks: marks))
        if !scan.needsScan { try? outputs.set(scan.still) }
    }

    mutating func scanStep() {
        row = (row + 1) % 3
        if row == 0 { dimFrame = (dimFrame + 1) % dimFrames }
        try? outputs.set(scan.blank)
        if scan.needsScan { try? outputs.set(scan.write(row: row, frame: dimFrame)) }
    }

    public mutating func pressAndScanOneFrame(_ cell: Position) -> Int {
        handle(EdgeEvent(offset: pins.button(for: cell), edge: .falling, timestamp: now))
        var litSteps = 0
        for _ in 0..<3 {
            scanStep()
            if lights(cell, on: chip) { litSteps += 1 }
        }
        precondition(litSteps == 1, "the pressed cell was not lit once in a frame")
        return litSteps
    }

    public mutating func release(_ cell: Position) {
        now += .milliseconds(50)
        handle(EdgeEvent(offset: pins.button(for: cell), edge: .rising, timestamp: now))
        now += .milliseconds(50)
    }
}

/// What a press benchmark does with a board: take the next cell of the replayed games (starting
/// a new game first when one has ended), press it until it is lit, release it.
public protocol PressedBoard {
    mutating func nextCell() -> Position
    /// Presses `cell` and runs one frame of the scan (three row steps, so the same work for
    /// every board and every press, whatever row the scan was on); returns how many of the
    /// steps lit the cell, which must be one.
    mutating func pressAndScanOneFrame(_ cell: Position) -> Int
    mutating func release(_ cell: Position)
}

extension FullStack: PressedBoard {}
extension ImperativeBoard: PressedBoard {}

/// Every position reachable in play from an empty board with X to start that has a move to make
/// (4,520), in the order a depth-first walk meets them: what the computer-move benchmarks cycle
/// through.
public func positionsInPlay() -> [Board] {
    var positions: [Board] = []
    var seen: Set<Board> = []
    func visit(_ board: Board) {
        guard board.turn != nil, seen.insert(board).inserted else { return }
        positions.append(board)
        for cell in Position.all { if let next = try? board.playing(cell) { visit(next) } }
    }
    visit(Board(starter: .x))
    return positions
}
