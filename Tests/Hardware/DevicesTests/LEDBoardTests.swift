import Basics
import BoardSimulation
#if canImport(Glibc)
import Glibc
#endif
import GPIO
import Lights
import Reactive
import SimulatedGPIO
import Testing
@testable import Devices

@Suite("LED board: the matrix and the status LEDs")
struct LEDBoardTests {
    let scheduler = TestScheduler()
    let chip: SimulatedChip
    let pins = PinMap.standard
    let lines: any OutputLines
    let matrix: LEDBoard
    let frame = MutableProperty(Frame.dark)
    /// The default LEDs' dim cycle, as a board with the default settings has it.
    let cycle = DimCycle.standard

    init() throws {
        chip = SimulatedChip(clock: scheduler)
        lines = try chip.requestOutputs(OutputConfiguration(offsets: PinMap.standard.outputOffsets, initialLevel: .low, consumer: "t"))
        matrix = LEDBoard(lines: lines, pins: .standard, rowPeriod: .microseconds(500), dimCycle: cycle, scheduler: scheduler)
        matrix <~ frame
        matrix.start()
    }

    private var sample: Frame {
        var cells = [LEDColor](repeating: .off, count: 9)
        cells[0] = .red
        cells[4] = .green
        cells[8] = .amber
        cells[2] = .red
        return Frame(cells: cells, xStatus: false, oStatus: false)
    }

    @Test("what the eye sees of the scan is the frame")
    func perceived() {
        frame.value = sample
        scheduler.advance(by: .milliseconds(50))
        #expect(FramePerception(pins: pins).frame(on: chip, endingAt: scheduler.now) == sample)
    }

    @Test("never two rows lit at once, and columns change only while every row is off")
    func noGhosting() {
        frame.value = sample
        scheduler.advance(by: .milliseconds(20))
        var cells = sample.cells
        cells.swapAt(0, 8)
        frame.value = Frame(cells: cells, xStatus: false, oStatus: false)
        scheduler.advance(by: .milliseconds(20))
        let columns = pins.redColumns + pins.greenColumns
        var previous = chip.outputHistory.first?.levels ?? LineLevels()
        var writes = 0
        for write in chip.outputHistory.dropFirst() {
            let lit = pins.rows.filter { write.levels[$0] == .high }
            #expect(lit.count <= 1)
            let columnsChanged = columns.contains { write.levels[$0] != previous[$0] }
            let wasLit = pins.rows.contains { previous[$0] == .high }
            // Columns may change together with turning a row on from blank, never while a row
            // stays lit.
            if columnsChanged { #expect(!wasLit || lit.isEmpty) }
            previous = write.levels
            writes += 1
        }
        #expect(writes > 100)
    }

    @Test("a full frame is scanned at least 100 times a second")
    func scanRate() {
        frame.value = sample
        scheduler.advance(by: .seconds(1))
        let rowOnsets = chip.outputHistory.filter { $0.levels[pins.rows[0]] == .high }.count
        #expect(rowOnsets >= 100)
    }

    @Test("a dark frame is written once, then nothing; stop switches everything off")
    func darkAndStop() {
        frame.value = sample
        scheduler.advance(by: .milliseconds(10))
        frame.value = .dark
        scheduler.advance(by: .milliseconds(5))
        let count = chip.outputHistory.count
        scheduler.advance(by: .milliseconds(100))
        #expect(chip.outputHistory.count == count)
        #expect(pins.outputOffsets.allSatisfy { chip.level(of: $0) == .low })
        frame.value = sample
        scheduler.advance(by: .milliseconds(10))
        matrix.stop()
        scheduler.advance(by: .milliseconds(10))
        #expect((pins.rows + pins.redColumns + pins.greenColumns).allSatisfy { chip.level(of: $0) == .low })
    }

    @Test("a frame counts as written once all three rows have been lit; a dark one at once")
    func framesWritten() throws {
        let chip = SimulatedChip(clock: scheduler)
        let lines = try chip.requestOutputs(OutputConfiguration(offsets: pins.outputOffsets, initialLevel: .low, consumer: "w"))
        let matrix = LEDBoard(lines: lines, pins: pins, rowPeriod: .microseconds(500), scheduler: scheduler)
        let frame = MutableProperty(sample)
        matrix <~ frame
        let written = Protected(0)
        matrix.framesWritten.observeValues { written.withValue { $0 += 1 } }
        matrix.start()
        scheduler.advance(by: .microseconds(1_000))
        #expect(written.value == 0, "two rows of three lit so far")
        scheduler.advance(by: .microseconds(500))
        #expect(written.value == 1)
        scheduler.advance(by: .milliseconds(10))
        #expect(written.value == 1, "rescanning the same frame is not a new frame")
        frame.value = .dark
        #expect(written.value == 2)
        #expect((pins.rows + pins.redColumns + pins.greenColumns).allSatisfy { chip.level(of: $0) == .low })
    }

    private var failed: GPIOError {
        .system(chip: chip.name, operation: "setting line values", errno: EIO, message: "input/output error")
    }

    private var busy: GPIOError {
        .system(chip: chip.name, operation: "setting line values", errno: EAGAIN, message: "resource temporarily unavailable")
    }

    @Test("a write that fails once, or a burst of failures for 50 ms, is retried at the next step: no failure, the frame shows")
    func transientWriteErrors() {
        let failures = Protected<[LEDFailure]>([])
        matrix.failures.observeValues { failure in failures.withValue { $0.append(failure) } }
        frame.value = sample
        scheduler.advance(by: .milliseconds(10))
        chip.failWrites(with: busy, times: 1)
        scheduler.advance(by: .milliseconds(600))
        chip.failWrites(with: busy, times: 100)  // one failed write a step, 0.5 ms apart
        scheduler.advance(by: .milliseconds(600))
        #expect(chip.failedWriteCount == 101)
        #expect(failures.value.isEmpty)
        #expect(matrix.isScanning)
        #expect(FramePerception(pins: pins).frame(on: chip, endingAt: scheduler.now) == sample)
    }

    @Test("a board that needs no scan retries its one write until it works")
    func stillWriteRetried() {
        let failures = Protected<[LEDFailure]>([])
        matrix.failures.observeValues { failure in failures.withValue { $0.append(failure) } }
        chip.failWrites(with: busy, times: 2)
        frame.value = Frame(cells: [LEDColor](repeating: .off, count: 9), xStatus: true, oStatus: false)
        #expect(chip.level(of: pins.xStatus) == pins.statusPolarity.level(active: false))
        scheduler.advance(by: .microseconds(1_000))
        #expect(chip.level(of: pins.xStatus) == pins.statusPolarity.level(active: true))
        #expect(failures.value.isEmpty && chip.failedWriteCount == 2)
        #expect(!matrix.isScanning)
    }

    @Test("writes failing for half a second stop the scan, are reported once, and nothing is written after")
    func persistentWriteErrors() throws {
        let failures = Protected<[LEDFailure]>([])
        matrix.failures.observeValues { failure in failures.withValue { $0.append(failure) } }
        frame.value = sample
        scheduler.advance(by: .milliseconds(10))
        chip.failWrites(with: failed)
        scheduler.advance(by: .milliseconds(499))  // the first failed write was at 10.5 ms
        #expect(failures.value.isEmpty, "a failure reported before it lasted half a second")
        scheduler.advance(by: .milliseconds(2))
        let failure = try #require(failures.value.first)
        #expect(failures.value.count == 1)
        #expect(failure.last == failed && failure.writes == 1_001 && failure.lasting == .milliseconds(500))
        #expect(failure.description == "writing the LED lines failed 1001 times in a row, for 500 ms: \(failed)")
        #expect(!matrix.isScanning)
        chip.healWrites()
        let (writes, failedWrites) = (chip.outputWriteCount, chip.failedWriteCount)
        frame.value = .dark
        scheduler.advance(by: .seconds(1))
        #expect(chip.outputWriteCount == writes && chip.failedWriteCount == failedWrites, "written after the failure")
        #expect(failures.value.count == 1)
    }

    /// X's marks full, O's dim, as the default marks show them: red in the corner, green dim in
    /// the middle, O's status LED dim.
    private var dimmed: Frame {
        var cells = FrameCells()
        cells[0] = .red
        cells.set(.green, .dim, at: 4)
        return Frame(cells: cells, xStatus: false, oStatus: true, oStatusBrightness: .dim)
    }

    @Test("what the eye sees of dim cells and a dim status LED is the frame, brightness and all")
    func perceivedDim() {
        frame.value = dimmed
        scheduler.advance(by: .milliseconds(50))
        let seen = FramePerception(pins: pins).frame(on: chip, endingAt: scheduler.now)
        #expect(seen == dimmed, "\(seen)")
        #expect(seen.cells.brightness(at: 4) == .dim && seen.cells.brightness(at: 0) == .full)
    }

    /// When the lines went from not showing to showing what `isOn` looks for, over the history.
    private func onsets(_ isOn: (LineLevels) -> Bool) -> [MonotonicInstant] {
        var onsets: [MonotonicInstant] = [], wasOn = false
        for write in chip.outputHistory {
            let on = isOn(write.levels)
            if on && !wasOn { onsets.append(write.time) }
            wasOn = on
        }
        return onsets
    }

    @Test("a dim LED is lit one frame in the dim cycle's, in the scan's own writes, and still refreshed at least 100 times a second")
    func dimDuty() {
        frame.value = sample
        scheduler.advance(by: .seconds(1))
        let fullWrites = chip.outputHistory.count
        frame.value = dimmed
        scheduler.advance(by: .seconds(1))
        // No write and no wake-up of its own: the same number of writes a second.
        #expect(abs(chip.outputHistory.count - 2 * fullWrites) <= 2, "\(chip.outputHistory.count) writes against \(fullWrites)")
        let second = scheduler.now - .seconds(1)
        func lit(_ cell: Int, _ color: LEDColor) -> (LineLevels) -> Bool {
            { pins.cellColors(at: $0)[cell] == color }
        }
        let red = onsets(lit(0, .red)).filter { $0 > second }.count
        let green = onsets(lit(4, .green)).filter { $0 > second }.count
        let status = onsets { $0[pins.oStatus] == .high }.filter { $0 > second }.count
        // Full: once a frame; dim: once every cycle's frames; both at least 100 times a second.
        #expect(abs(red - cycle.frames * green) <= cycle.frames, "red \(red), green \(green) in \(cycle)")
        #expect(green >= 100 && status >= 100, "green \(green), O's status \(status)")
        #expect(abs(green - status) <= 1)
    }

    /// The learner's box: a cell at each of the three brightnesses.
    private var graded: Frame {
        var cells = FrameCells()
        cells[0] = .green
        cells.set(.green, .half, at: 4)
        cells.set(.green, .dim, at: 8)
        return Frame(cells: cells, xStatus: false, oStatus: true, oStatusBrightness: .dim)
    }

    @Test("a half LED is lit in half the dim cycle's frames, between dim and full, and an eye reads all three brightnesses back")
    func halfDuty() {
        frame.value = graded
        scheduler.advance(by: .seconds(1))
        let second = scheduler.now - .seconds(1)
        // Time lit over the last second, per cell: the row scan lights one row at a time.
        var lit = [Int64](repeating: 0, count: 9), last = second, levels: LineLevels?
        for write in chip.outputHistory {
            if let levels, write.time > second {
                for (cell, color) in pins.cellColors(at: levels).enumerated() where color == .green { lit[cell] += (write.time - last).nanoseconds }
            }
            (levels, last) = (write.levels, max(write.time, second))
        }
        let share = [0, 4, 8].map { Double(lit[$0]) / Double(lit[0]) }
        #expect(abs(share[1] - cycle.duty(of: .half)) < 0.02 && abs(share[2] - cycle.duty(of: .dim)) < 0.02, "\(share) in \(cycle)")
        #expect(cycle.litFrames(of: .half) == 3 && cycle.frames == 6)
        let seen = FramePerception(pins: pins).frame(on: chip, endingAt: scheduler.now)
        #expect(seen == graded, "\(seen)")
        #expect(seen.description == "G . .\n. ɢ .\n. . g\nX:off O:dim")
    }

    @Test("a frame with dim LEDs counts as written once all three rows have been lit in a frame that lights them")
    func dimFrameWritten() throws {
        let written = Protected(0)
        matrix.framesWritten.observeValues { written.withValue { $0 += 1 } }
        frame.value = dimmed
        var steps = 0
        while written.value == 0 && steps < 3 * (cycle.frames + 2) {
            scheduler.advance(by: .microseconds(500))
            steps += 1
        }
        #expect(written.value == 1)
        // By then every LED of the frame has been on, the dim green in the middle included.
        let lit = Set(chip.outputHistory.flatMap { write in
            pins.cellColors(at: write.levels).enumerated().filter { $0.element.isLit }.map { "\($0.element) \($0.offset)" }
        })
        #expect(lit == ["red 0", "green 4"], "\(lit) after \(steps) steps")
        #expect(chip.outputHistory.contains { $0.levels[pins.oStatus] == .high })
    }

    @Test("status LEDs alone are written once with no scan; a dim one alone is pulsed, not scanned")
    func statusAlone() {
        frame.value = Frame(cells: FrameCells(), xStatus: true, oStatus: false)
        scheduler.advance(by: .milliseconds(10))
        #expect(!matrix.isScanning)
        #expect(chip.level(of: pins.xStatus) == .high && chip.level(of: pins.oStatus) == .low)
        let count = chip.outputHistory.count
        scheduler.advance(by: .milliseconds(100))
        #expect(chip.outputHistory.count == count, "nothing written while nothing changes")
        frame.value = Frame(cells: FrameCells(), xStatus: false, oStatus: true, oStatusBrightness: .dim)
        scheduler.advance(by: .milliseconds(30))
        #expect(!matrix.isScanning && matrix.isPulsing)
        #expect(FramePerception(pins: pins).frame(on: chip, endingAt: scheduler.now).description.hasSuffix("X:off O:dim"))
        frame.value = .dark
        scheduler.advance(by: .milliseconds(10))
        #expect(!matrix.isScanning && !matrix.isPulsing)
        #expect(pins.outputOffsets.allSatisfy { chip.level(of: $0) == .low })
        frame.value = Frame(cells: FrameCells(), xStatus: true, oStatus: false)
        matrix.stop()
        #expect(pins.outputOffsets.allSatisfy { chip.level(of: $0) == .low })
    }

    /// O to move in a new game with the default marks: no cell lit, O's status LED dim.
    private var oToStart: Frame { Frame(cells: FrameCells(), xStatus: false, oStatus: true, oStatusBrightness: .dim) }

    /// The dim cycle's length: its frames of three 0.5 ms rows.
    private var cycleTime: Duration { .microseconds(500) * 3 * cycle.frames }
    /// Dim cycles a second.
    private var cyclesPerSecond: Double { Duration.seconds(1) / cycleTime }

    @Test("a dim status LED alone: two wake-ups and two writes a cycle (222 a second at 0.5 ms rows and 6 frames, not 2,000), the same light on its line as in the scan")
    func dimStatusPulse() {
        frame.value = oToStart
        scheduler.advance(by: .seconds(1))
        let (actions, writes) = (scheduler.completedActions, chip.outputHistory.count)
        scheduler.advance(by: .seconds(1))
        // Each cycle a lit write and a dark one.
        let perSecond = Int((2 * cyclesPerSecond).rounded(.down))
        #expect((perSecond - 1...perSecond + 1).contains(scheduler.completedActions - actions), "\(scheduler.completedActions - actions) wake-ups")
        #expect((perSecond - 1...perSecond + 1).contains(chip.outputHistory.count - writes), "\(chip.outputHistory.count - writes) writes")
        #expect(!matrix.isScanning && matrix.isPulsing)
        let second = scheduler.now - .seconds(1)
        let pulses = chip.outputHistory.filter { $0.time > second }
        #expect(pulses.allSatisfy { write in pins.rows.allSatisfy { write.levels[$0] == .low } }, "a row switched on")
        let status = onsets { $0[pins.oStatus] == .high }.filter { $0 > second }
        #expect(abs(Double(status.count) - cyclesPerSecond) <= 1, "\(status.count) onsets")
        #expect(abs(litShare(of: pins.oStatus, over: wholeCycles) - cycle.duty(of: .dim)) < 0.001)
        #expect(FramePerception(pins: pins).frame(on: chip, endingAt: scheduler.now) == oToStart)
    }

    @Test("O's dim status LED is lit the same share of time, at the same rate, pulsed alone as when the scan carries it")
    func dimStatusPulseMatchesScan() {
        var withMark = oToStart
        withMark.cells[0] = .red
        frame.value = withMark
        scheduler.advance(by: .seconds(1))
        let scanned = litShare(of: pins.oStatus, over: wholeCycles)
        let scannedOnsets = onsets { $0[pins.oStatus] == .high }.filter { $0 > scheduler.now - .seconds(1) }.count
        frame.value = oToStart
        scheduler.advance(by: .seconds(1))
        #expect(abs(scanned - cycle.duty(of: .dim)) < 0.001, "\(scanned)")
        let pulsed = litShare(of: pins.oStatus, over: wholeCycles)
        #expect(matrix.isPulsing && abs(pulsed - scanned) < 0.001, "\(pulsed) against \(scanned)")
        #expect(abs(onsets { $0[pins.oStatus] == .high }.filter { $0 > scheduler.now - .seconds(1) }.count - scannedOnsets) <= 1)
        // A cell lit again: the scan takes over, the pulse stops.
        frame.value = withMark
        scheduler.advance(by: .milliseconds(50))
        #expect(matrix.isScanning && !matrix.isPulsing)
        #expect(FramePerception(pins: pins).frame(on: chip, endingAt: scheduler.now) == withMark)
    }

    @Test("a pulsed frame counts as written at its first lit write; a failed pulse write is retried at the pulse's next change")
    func dimStatusPulseWritten() {
        let written = Protected(0)
        matrix.framesWritten.observeValues { written.withValue { $0 += 1 } }
        frame.value = oToStart
        #expect(written.value == 1 && chip.level(of: pins.oStatus) == .high)
        chip.failWrites(with: busy, times: 1)
        frame.value = Frame(cells: FrameCells(), xStatus: true, oStatus: true, oStatusBrightness: .dim)
        #expect(written.value == 1 && chip.level(of: pins.xStatus) == .low)
        scheduler.advance(by: .microseconds(1_500))  // the dark write: X's full LED on, O's dark
        #expect(chip.level(of: pins.xStatus) == .high && chip.level(of: pins.oStatus) == .low && written.value == 1)
        scheduler.advance(by: cycleTime - .microseconds(1_500))  // the next lit write
        #expect(chip.level(of: pins.oStatus) == .high && written.value == 2)
    }

    /// As many whole dim cycles as fit in a second: a share of time over them does not depend
    /// on where the cycle started.
    private var wholeCycles: Duration { cycleTime * Int(cyclesPerSecond.rounded(.down)) }

    @Test("another part's dim cycle (not the default's) is the scan's and the pulse's: lit one frame in that many, and the eye reads it dim",
          arguments: [2, 4, 9, 13])
    func otherCycles(frames: Int) throws {
        let scheduler = TestScheduler(), chip = SimulatedChip(clock: scheduler), cycle = DimCycle(frames: frames)
        let lines = try chip.requestOutputs(OutputConfiguration(offsets: pins.outputOffsets, initialLevel: .low, consumer: "t"))
        let board = LEDBoard(lines: lines, pins: pins, rowPeriod: .microseconds(500), dimCycle: cycle, scheduler: scheduler)
        let shown = MutableProperty(dimmed)
        board <~ shown
        board.start()
        scheduler.advance(by: .seconds(1))
        // Onsets in the last second.
        func onsets(_ isOn: (LineLevels) -> Bool) -> Int {
            let second = scheduler.now - .seconds(1)
            var count = 0, wasOn = false
            for write in chip.outputHistory {
                let on = isOn(write.levels)
                if on && !wasOn && write.time > second { count += 1 }
                wasOn = on
            }
            return count
        }
        let red = onsets { pins.cellColors(at: $0)[0] == .red }, green = onsets { pins.cellColors(at: $0)[4] == .green }
        #expect(abs(red - frames * green) <= frames, "red \(red), green \(green), one frame in \(frames)")
        #expect(FramePerception(pins: pins, dimCycle: cycle).frame(on: chip, endingAt: scheduler.now) == dimmed)
        // O's status LED alone is pulsed on the same cycle: lit one frame in `frames`.
        shown.value = oToStart
        scheduler.advance(by: .seconds(1))
        let pulses = onsets { $0[pins.oStatus] == .high }
        let expected = Duration.seconds(1) / (.microseconds(500) * 3 * frames)
        #expect(board.isPulsing && abs(Double(pulses) - expected) <= 1, "\(pulses) pulses, \(expected) cycles a second")
        #expect(FramePerception(pins: pins, dimCycle: cycle).frame(on: chip, endingAt: scheduler.now) == oToStart)
        board.stop()
    }

    @Test("stopped while pulsing: every line off, and nothing written after")
    func dimStatusPulseStopped() {
        frame.value = oToStart
        scheduler.advance(by: .milliseconds(20))
        matrix.stop()
        #expect(!matrix.isPulsing && pins.outputOffsets.allSatisfy { chip.level(of: $0) == .low })
        let (actions, writes) = (scheduler.completedActions, chip.outputHistory.count)
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.completedActions == actions && chip.outputHistory.count == writes)
    }

    /// The share of the last `span` in which `line` was high, from the writes' history.
    private func litShare(of line: LineOffset, over span: Duration) -> Double {
        let end = scheduler.now, start = end - span
        var high: Int64 = 0, since = start, wasHigh = chip.outputHistory.last { $0.time <= start }?.levels[line] == .high
        for write in chip.outputHistory where write.time > start {
            if wasHigh { high += (write.time - since).nanoseconds }
            since = write.time
            wasHigh = write.levels[line] == .high
        }
        if wasHigh { high += (end - since).nanoseconds }
        return Double(high) / Double(span.nanoseconds)
    }
}
