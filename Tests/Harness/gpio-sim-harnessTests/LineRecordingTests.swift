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

    /// How the kernel's record of a write is laid out: every line of the request, or only those
    /// a v2 request set (here: those that changed), in the request's order of lines.
    enum Shape: CaseIterable {
        /// libgpiod v1 sets every line of the request, rows first (the board's request).
        case everyLineRowsFirst
        /// v2 sets a subset; the kernel records it in the request's order.
        case changedLinesRowsFirst
        /// A request with the columns and status lines before the rows.
        case changedLinesColumnsFirst
    }

    /// The real board on a simulated chip, played to X in the centre and O in a corner (O's
    /// marks dim) unless `moves` says otherwise (a key for new game: "n"), then left to scan;
    /// returns its record from then for `length`, laid out as `shape`.
    private func scannedBoard(
        moves: [String] = ["4", "0"], length: Duration, shape: Shape = .everyLineRowsFirst,
        during: ((GameBoard, SimulatedChip, TestScheduler) -> Void)? = nil
    ) throws -> (recording: LineRecording, board: GameBoard) {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler, historyCapacity: 1 << 17)
        let board = try GameBoard(chip: chip, settings: BoardSettings(), scheduler: scheduler)
        board.start()
        for move in moves {
            let line = Int(move).map { pins.button(for: Position.all[$0]) } ?? pins.newGameButton
            chip.drive(line, to: pins.buttonPolarity.level(active: true))
            scheduler.advance(by: .milliseconds(100))
            chip.drive(line, to: nil)
            scheduler.advance(by: .milliseconds(100))
        }
        let start = scheduler.now
        during?(board, chip, scheduler)
        scheduler.advance(by: length)
        return (record(chip, from: start, to: scheduler.now, shape: shape), board)
    }

    /// The chip's history as the kernel records it, in `shape`, stamped.
    private func record(_ chip: SimulatedChip, from start: MonotonicInstant, to end: MonotonicInstant, shape: Shape = .everyLineRowsFirst)
        -> LineRecording {
        let history = chip.outputHistory(from: start, to: end)
        let order = shape == .changedLinesColumnsFirst ? pins.redColumns + pins.greenColumns + [pins.xStatus, pins.oStatus] + pins.rows
            : pins.outputOffsets
        var levels = history.initial
        let changes = history.writes.flatMap { write in
            let lines = order.filter { shape == .everyLineRowsFirst || write.levels[$0] != levels[$0] }
            levels = write.levels
            return lines.map { LineRecording.Change(time: write.time.nanoseconds, line: $0, isHigh: write.levels[$0].isHigh) }
        }
        return LineRecording(pins: pins, start: start.nanoseconds, end: end.nanoseconds, initial: history.initial, changes: changes, lost: 0)
    }

    /// X to move, 300 ms on: O's corner pressed for 100 ms, refused, so it flickers.
    private func refusedCornerPress(_: GameBoard, chip: SimulatedChip, scheduler: TestScheduler) {
        scheduler.advance(by: .milliseconds(300))
        chip.drive(pins.button(for: Position.all[0]), to: pins.buttonPolarity.level(active: true))
        scheduler.advance(by: .milliseconds(100))
        chip.drive(pins.button(for: Position.all[0]), to: nil)
    }

    @Test("the frame read per visit is the view model's: X full, O dim, either to move, however the kernel lays out the writes",
          arguments: Shape.allCases)
    func frame(shape: Shape) throws {
        let (recording, board) = try scannedBoard(length: .milliseconds(200), shape: shape)
        let read = try recording.frame(from: recording.start, to: recording.end, visits: recording.visits()).get()
        let shown = board.viewModel.frame.value
        #expect(read == shown, "read \(read), shown \(shown)")
        #expect(shown.cells.brightness(at: 0) == .dim && shown.cells.brightness(at: 4) == .full)
        board.shutdown()
        // O to move: its status LED dim, lit in the scan's steps of one frame in each cycle.
        let (oToMove, second) = try scannedBoard(moves: ["4"], length: .milliseconds(200), shape: shape)
        let seen = try oToMove.frame(from: oToMove.start, to: oToMove.end, visits: oToMove.visits()).get()
        #expect(seen == second.viewModel.frame.value && !seen.xStatus && seen.oStatusBrightness == .dim, "read \(seen)")
        second.shutdown()
    }

    @Test("a stalled visit is one visit: a dim mark still reads dim, however long its lit frame lasted")
    func stall() throws {
        let (recording, board) = try scannedBoard(length: .milliseconds(200))
        // The first visit in which O's corner is lit lasts 150 ms more: every change after its
        // row goes off comes that much later, as when an emulator stops the board mid-visit.
        let visits = recording.visits()
        let lit = try #require(visits[0].first { $0.green[0] })
        let stalled = recording.delayed(from: lit.end, by: 150_000_000)
        let read = try stalled.frame(from: stalled.start, to: stalled.end, visits: stalled.visits()).get()
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
        let (recording, board) = try scannedBoard(length: .milliseconds(1500), during: refusedCornerPress)
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

    @Test("a board that stops with a row lit shows that row, in every stretch after")
    func stoppedWithARowLit() throws {
        let (recording, board) = try scannedBoard(length: .milliseconds(200))
        // Every write after the first visit in which O's corner is lit is lost: its row stays on.
        let lit = try #require(recording.visits()[0].first { $0.green[0] })
        let stopped = LineRecording(pins: pins, start: recording.start, end: recording.end, initial: recording.initial,
                                    changes: recording.changes.filter { $0.time <= lit.start }, lost: 0)
        let last = try stopped.frame(from: stopped.end - 50_000_000, to: stopped.end, visits: stopped.visits()).get()
        #expect(last.cells[0] == .green && last.cells.brightness(at: 0) == .full, "\(last)")
        board.shutdown()
    }

    @Test("O's dim status LED pulsed alone over a dark matrix reads dim, one pulse or gap stalled 100 ms or not")
    func pulsedStatus() throws {
        // X wins the top row; new game: O starts, nothing lit but O's dim status LED.
        let (recording, board) = try scannedBoard(moves: ["0", "3", "1", "4", "2", "n"], length: .milliseconds(400))
        #expect(board.viewModel.frame.value.description == ". . .\n. . .\n. . .\nX:off O:dim")
        let read = try recording.frame(from: recording.start, to: recording.end, visits: recording.visits()).get()
        #expect(read == board.viewModel.frame.value, "read \(read)")
        for stalled in [true, false] {
            // The first change of O's line in the middle of the stretch (on or off) and all after
            // it 100 ms late.
            let middle = (recording.start + recording.end) / 2
            let change = try #require(recording.changes.first { $0.line == pins.oStatus && $0.time > middle && $0.isHigh == stalled })
            let slow = recording.delayed(from: change.time, by: 100_000_000)
            let seen = try slow.frame(from: slow.start, to: slow.end, visits: slow.visits()).get()
            #expect(seen == board.viewModel.frame.value, "stalled while \(stalled ? "dark" : "lit"): read \(seen)")
        }
        board.shutdown()
    }

    @Test("pulses an emulator cut short are not read: a few among whole ones change nothing, all of them leave the window starved")
    func starvedPulses() throws {
        let (recording, board) = try scannedBoard(moves: ["0", "3", "1", "4", "2", "n"], length: .milliseconds(400))
        let shown = board.viewModel.frame.value
        // A stalled host wakes the board late for its lit write, and its dark write, due by
        // then, follows at once: O's pulse lasts 20 µs. `every`: one pulse in how many so cut.
        func cut(every: Int) -> LineRecording {
            var pulse = 0, litAt: Int64 = 0
            let changes = recording.changes.map { original in
                var change = original
                guard change.line == pins.oStatus else { return change }
                if change.isHigh {
                    pulse += 1
                    litAt = change.time
                } else if pulse % every == 0 {
                    change.time = litAt + 20_000
                }
                return change
            }
            return LineRecording(pins: pins, start: recording.start, end: recording.end, initial: recording.initial, changes: changes, lost: 0)
        }
        let some = cut(every: 3)
        #expect(try some.frame(from: some.start, to: some.end, visits: some.visits()).get() == shown)
        let all = cut(every: 1)
        let read = all.frame(from: all.start, to: all.end, visits: all.visits())
        #expect(throws: LineRecording.Starved.self, "read \(read)") { try read.get() }
        board.shutdown()
    }

    @Test("a blinking winning line reads at its brightness over any window of its phases, never dim")
    func blinkingLine() throws {
        // X wins the top row: the line blinks (on and off for half a second each), O's marks stay.
        let (recording, board) = try scannedBoard(moves: ["0", "3", "1", "4", "2"], length: .seconds(2))
        let visits = recording.visits()
        for (from, length) in [(Int64(0), Int64(2_000_000_000)), (300_000_000, 700_000_000), (700_000_000, 900_000_000)] {
            let frame = try recording.frame(from: recording.start + from, to: recording.start + from + length, visits: visits).get()
            for index in 0..<3 {
                #expect(frame.cells[index] == .red && frame.cells.brightness(at: index) == .full, "\(from / 1_000_000) ms + \(length / 1_000_000): \(frame)")
            }
        }
        board.shutdown()
    }

    @Test("a starved scan's few visits still tell a full LED that went off from a dim or half one")
    func fewVisits() {
        typealias Chances = LineRecording.Chances
        let dark = Array(repeating: false, count: 12)
        // Lit four visits in a row, then off (a blink's edge): only a full LED is lit so long.
        #expect(Chances(Array(repeating: true, count: 4) + dark).judged.brightness == .full)
        // A dim LED's one lit visit per cycle, and a half LED's three in a row.
        #expect(Chances([true] + Array(dark.prefix(5)) + [true]).judged.brightness == .dim)
        #expect(Chances([true, true, true, false, false, false, true, true, true]).judged.brightness == .half)
        // A status LED counts every row's visit: O's dim one is lit the three of one frame.
        #expect(Chances(Array(repeating: true, count: 3) + Array(repeating: false, count: 15) + [true, true, true], perFrame: 3).judged.brightness == .dim)
        #expect(Chances(Array(repeating: true, count: 10) + dark, perFrame: 3).judged.brightness == .full)
    }

    @Test("a scan slowed far below its rate leaves a cell's pattern unseen, not read")
    func slowedScan() throws {
        let (recording, board) = try scannedBoard(length: .milliseconds(1500), during: refusedCornerPress)
        // One visit of the corner's row in twenty kept (about 40 a second of its 660), the rest never made.
        var kept = 0
        let visits = recording.visits()[0].filter { _ in
            kept += 1
            return kept % 20 == 0
        }
        let rows = Set(pins.rows)
        let sparse = recording.changes.filter { change in
            !rows.contains(change.line) || change.line != pins.rows[0] || visits.contains { $0.start == change.time || $0.end == change.time }
        }
        let slowed = LineRecording(pins: pins, start: recording.start, end: recording.end, initial: recording.initial, changes: sparse, lost: 0)
        #expect(slowed.visits()[0].count < 100)
        let pattern = slowed.pattern(ofCell: 0, bin: 10_000_000)
        #expect(pattern.reading != "flicker" && pattern.reading != "blink" && pattern.reading != "steady", "\(pattern.reading)")
        #expect(pattern.levels.allSatisfy { $0 == nil })
        board.shutdown()
    }

    /// The kernel's format of the gpio_value event, as tracefs prints it.
    static let format = """
        name: gpio_value
        ID: 421
        format:
        \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
        \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
        \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
        \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

        \tfield:unsigned gpio;\toffset:8;\tsize:4;\tsigned:0;
        \tfield:int get;\toffset:12;\tsize:4;\tsigned:1;
        \tfield:int value;\toffset:16;\tsize:4;\tsigned:1;

        print fmt: "%u %3s %d", REC->gpio, REC->get ? "get" : "set", REC->value
        """

    /// A page as the kernel lays one out: its stamp, its records' length in bytes with `flags`,
    /// the records, then `after` them (outside the length) a count of lost records.
    private func page(stamp: UInt64, flags: UInt64 = 0, records: [[UInt32]], after: [UInt8] = []) -> [UInt8] {
        let body = records.flatMap { $0 }.flatMap { word in (0..<4).map { UInt8((word >> (8 * $0)) & 0xff) } } + after
        func bytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8((value >> (8 * UInt64($0))) & 0xff) } }
        return bytes(stamp) + bytes(UInt64(body.count - after.count) | flags) + body + [UInt8](repeating: 0, count: 64)
    }

    /// A record's first word: its kind and the time since the record before.
    private func header(_ kind: UInt32, _ delta: UInt32) -> UInt32 { kind | delta << 5 }

    @Test("the kernel's trace pages read as its own reader reads them: every kind of record, times and losses")
    func tracePages() throws {
        let format = try #require(TracePage.EventFormat(Self.format))
        #expect(format.id == 421 && format.fields["gpio"] == 8 && format.fields["get"] == 12 && format.fields["value"] == 16)
        func gpioValue(_ gpio: UInt32, get: UInt32 = 0, value: UInt32) -> [UInt32] { [421, 0, gpio, get, value] }
        let records: [[UInt32]] = [
            [header(5, 10)] + gpioValue(532, value: 1),              // 1,000,010
            [header(30, 5), 2],                                      // + 2 << 27 + 5
            [header(29, 7), 20, 0, 0, 0, 0],                         // discarded (its length over its first word): its time is not counted
            [header(0, 3), 24] + gpioValue(517, value: 0),           // + 3, its length in a word
            [header(5, 4), 99, 0, 532, 0, 1],                        // another event: skipped, its time counted
            [header(5, 1)] + gpioValue(532, get: 1, value: 1),       // a read
            [header(31, 6), 1],                                      // the time set outright: 1 << 27 + 6
            [header(5, 2)] + gpioValue(533, value: 1),
        ]
        let (values, lost) = TracePage.lineValues(in: page(stamp: 1_000_000, records: records), format: format)
        let extended: Int64 = 1_000_015 + (2 << 27)
        #expect(values == [
            TracePage.LineValue(time: 1_000_010, gpio: 532, isRead: false, value: true),
            TracePage.LineValue(time: extended + 3, gpio: 517, isRead: false, value: false),
            TracePage.LineValue(time: extended + 8, gpio: 532, isRead: true, value: true),
            TracePage.LineValue(time: (1 << 27) + 8, gpio: 533, isRead: false, value: true),
        ])
        #expect(lost == 0)
        // Lost before the page, counted just past its records; or lost, not counted.
        let counted = page(stamp: 5, flags: 3 << 30, records: [[header(5, 1)] + gpioValue(532, value: 1)], after: [7, 0, 0, 0, 0, 0, 0, 0])
        #expect(TracePage.lineValues(in: counted, format: format).lost == 7)
        #expect(TracePage.lineValues(in: counted, format: format).values.count == 1)
        #expect(TracePage.lineValues(in: page(stamp: 5, flags: 1 << 31, records: []), format: format).lost == 1)
        // The page's end: a discarded record with no time; a record cut short is not read.
        let ended = page(stamp: 0, records: [[header(29, 0)], [header(5, 1)] + gpioValue(532, value: 1)])
        #expect(TracePage.lineValues(in: ended, format: format).values.isEmpty)
        let cut = Array(page(stamp: 0, records: [[header(5, 1)] + gpioValue(532, value: 1)]).prefix(16 + 12))
        #expect(TracePage.lineValues(in: cut, format: format).values.isEmpty)
    }
}

extension LineRecording {
    /// The same record with every change from `time` on `delay` ns later, and its end with
    /// them: as when an emulator stops the board at `time`.
    func delayed(from time: Int64, by delay: Int64) -> LineRecording {
        let late = changes.map { change in
            var change = change
            if change.time >= time { change.time += delay }
            return change
        }
        return LineRecording(pins: pins, start: start, end: end + delay, initial: initial, changes: late, lost: lost)
    }
}
