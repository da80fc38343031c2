import GPIO
import Lights
import Reactive
import SimulatedGPIO
import Testing
@testable import Devices

@Suite("LED matrix and status LEDs")
struct LEDMatrixTests {
    let scheduler = TestScheduler()
    let chip: SimulatedChip
    let pins = PinMap.standard
    let lines: any OutputLines
    let matrix: LEDMatrix
    let frame = MutableProperty(Frame.dark)

    init() throws {
        chip = SimulatedChip(clock: scheduler)
        lines = try chip.requestOutputs(OutputConfiguration(offsets: PinMap.standard.outputOffsets, initialLevel: .low, consumer: "t"))
        matrix = LEDMatrix(lines: lines, pins: .standard, rowPeriod: .microseconds(500), scheduler: scheduler)
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
        let matrix = LEDMatrix(lines: lines, pins: pins, rowPeriod: .microseconds(500), scheduler: scheduler)
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

    @Test("a write error stops the scan and is reported")
    func writeError() {
        let failures = Protected<[GPIOError]>([])
        matrix.failures.observeValues { error in failures.withValue { $0.append(error) } }
        frame.value = sample
        lines.release()
        scheduler.advance(by: .milliseconds(10))
        #expect(failures.value == [.released(chip: chip.name)])
    }

    @Test("status LEDs follow the frame and write only on change")
    func statusLEDs() throws {
        let chip = SimulatedChip(clock: scheduler)
        let lines = try chip.requestOutputs(OutputConfiguration(offsets: [pins.xStatus, pins.oStatus], initialLevel: .low, consumer: "t"))
        let status = StatusLEDs(lines: lines, pins: pins)
        let frame = MutableProperty(Frame.dark)
        status <~ frame
        frame.value.xStatus = true
        frame.value.cells[0] = .red  // not the status LEDs' business: no write
        #expect(chip.level(of: pins.xStatus) == .high)
        #expect(chip.level(of: pins.oStatus) == .low)
        #expect(chip.outputHistory.count == 3)  // initial, dark, x on
        status.stop()
        #expect(chip.level(of: pins.xStatus) == .low)
    }
}
