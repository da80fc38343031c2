import Basics
import Devices
import GPIO
import Lights
import Reactive
import SimulatedGPIO
import Testing
import TicTacToe
import WiredBoard
@testable import gpio_sim_harness

/// The VMs read the LEDs from the kernel's record of the board's writes: here the record is the
/// simulated chip's own history of the real board's scan, made the way the kernel makes it
/// (one change per line per write), so the readings are held to what the view model showed.
@Suite("Reading the LEDs from a record of the line writes")
struct LineRecordingTests {
    let pins = PinMap.standard

    /// The real board on a simulated chip, played to X in the centre and O in a corner (O's
    /// marks dim), then left to scan; returns its record from `start` for `length`.
    private func scannedBoard(length: Duration, during: ((GameBoard, SimulatedChip, TestScheduler) -> Void)? = nil) throws
        -> (recording: LineRecording, board: GameBoard) {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler, historyCapacity: 1 << 17)
        let board = try GameBoard(chip: chip, settings: BoardSettings(), scheduler: scheduler)
        board.start()
        for cell in [4, 0] {
            chip.drive(pins.button(for: Position.all[cell]), to: pins.buttonPolarity.level(active: true))
            scheduler.advance(by: .milliseconds(100))
            chip.drive(pins.button(for: Position.all[cell]), to: nil)
            scheduler.advance(by: .milliseconds(100))
        }
        let start = scheduler.now
        during?(board, chip, scheduler)
        scheduler.advance(by: length)
        return (record(chip, from: start, to: scheduler.now), board)
    }

    /// The chip's history as the kernel records it: every line of every write, stamped.
    private func record(_ chip: SimulatedChip, from start: MonotonicInstant, to end: MonotonicInstant) -> LineRecording {
        let history = chip.outputHistory(from: start, to: end)
        let changes = history.writes.flatMap { write in
            pins.outputOffsets.map { LineRecording.Change(time: write.time.nanoseconds, line: $0, isHigh: write.levels[$0].isHigh) }
        }
        return LineRecording(pins: pins, start: start.nanoseconds, end: end.nanoseconds, initial: history.initial, changes: changes, lost: 0)
    }

    @Test("the frame read per visit is the view model's: X full, O dim, O's status LED dim")
    func frame() throws {
        let (recording, board) = try scannedBoard(length: .milliseconds(200))
        let read = recording.frame(from: recording.start, to: recording.end, visits: recording.visits())
        let shown = board.viewModel.frame.value
        #expect(read == shown, "read \(read), shown \(shown)")
        #expect(shown.cells.brightness(at: 0) == .dim && shown.cells.brightness(at: 4) == .full)
        board.shutdown()
    }

    @Test("a stalled visit is one visit: a dim mark still reads dim, however long its lit frame lasted")
    func stall() throws {
        let (recording, board) = try scannedBoard(length: .milliseconds(200))
        // The first visit in which O's corner is lit lasts 150 ms more: every change after its
        // row goes off comes that much later, as when an emulator stops the board mid-visit.
        let visits = recording.visits()
        let lit = try #require(visits[0].first { $0.green[0] })
        let stretched = recording.changes.map { change in
            var change = change
            if change.time >= lit.end { change.time += 150_000_000 }
            return change
        }
        let stalled = LineRecording(pins: pins, start: recording.start, end: recording.end + 150_000_000, initial: recording.initial,
                                    changes: stretched, lost: 0)
        let read = stalled.frame(from: stalled.start, to: stalled.end, visits: stalled.visits())
        #expect(read == board.viewModel.frame.value, "read \(read)")
        #expect(stalled.longestPause(from: stalled.start, to: stalled.end) >= 150_000_000)
        board.shutdown()
    }

    @Test("the duty and rate of each lit LED and the scan's frame rate, every visit counted")
    func timings() throws {
        let (recording, board) = try scannedBoard(length: .seconds(1))
        let timings = recording.timings()
        let frames = DimCycle.standard.frames
        #expect(Set(timings.cells.keys) == ["0", "4"])
        #expect(try #require(timings.cells["4"]).duty == 1)
        #expect(abs(try #require(timings.cells["0"]).duty - 1 / Double(frames)) < 0.01)
        // A row period of 500 µs: 666 frames a second, give or take a frame at the edges.
        #expect(abs(timings.frameRate - 1e9 / 1_500_000) < 3, "\(timings.frameRate)")
        // X to move: X's status LED steady, O's off.
        #expect(try #require(timings.x).duty == 1)
        #expect(timings.o == nil)
        board.shutdown()
    }

    @Test("a refused press reads as the flicker; a starved stretch inside it reads as starved, not as a pattern")
    func refusedPress() throws {
        // X to move; O's corner pressed: refused, it flickers (bright, and O's dim light between).
        let press: (GameBoard, SimulatedChip, TestScheduler) -> Void = { _, chip, scheduler in
            scheduler.advance(by: .milliseconds(300))
            chip.drive(self.pins.button(for: Position.all[0]), to: self.pins.buttonPolarity.level(active: true))
            scheduler.advance(by: .milliseconds(100))
            chip.drive(self.pins.button(for: Position.all[0]), to: nil)
        }
        let (recording, board) = try scannedBoard(length: .milliseconds(1500), during: press)
        let pattern = recording.pattern(ofCell: 0, bin: 10_000_000)
        #expect(pattern.reading == "flicker", "\(pattern.reading) \(pattern.litRuns)")
        #expect(pattern.longestUnseenMs == 0)
        // The board kept from writing for 60 ms in the middle of the flicker.
        let middle = try #require(pattern.litRuns.dropFirst().first)
        let cut = recording.start + Int64(middle[0] * 1e6)
        let starved = LineRecording(pins: pins, start: recording.start, end: recording.end, initial: recording.initial,
                                    changes: recording.changes.filter { $0.time < cut || $0.time >= cut + 60_000_000 }, lost: 0)
        let reading = starved.pattern(ofCell: 0, bin: 10_000_000).reading
        #expect(reading != "flicker" && reading != "blink", "\(reading)")
        board.shutdown()
    }

    @Test("the kernel's trace lines: a write to a wanted line, stamped; anything else is not one")
    func traceLines() {
        let wanted: Set<Int> = [512 + 5, 512 + 20]
        let line = "     tictactoe 2-85      [001] ..... 1234.567891: gpio_value: 532 set 1"
        #expect(KernelLineTrace.change(in: line[...], base: 512, wanted: wanted)
            == LineRecording.Change(time: 1_234_567_891_000, line: 20, isHigh: true))
        #expect(KernelLineTrace.change(in: "  x-1 [000] .....  0.000001: gpio_value: 517 set 0", base: 512, wanted: wanted)
            == LineRecording.Change(time: 1_000, line: 5, isHigh: false))
        #expect(KernelLineTrace.change(in: "  x-1 [000] .....  0.000001: gpio_value: 517 get 0", base: 512, wanted: wanted) == nil)
        #expect(KernelLineTrace.change(in: "  x-1 [000] .....  0.000001: gpio_value: 600 set 0", base: 512, wanted: wanted) == nil)
        #expect(KernelLineTrace.change(in: "# entries-in-buffer/entries-written: 4/4   #P:2", base: 512, wanted: wanted) == nil)
    }
}
