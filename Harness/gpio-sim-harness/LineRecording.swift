import Devices
import GPIO
import Lights

/// The chip's LED lines over a stretch of time, as the kernel recorded every value written to
/// them (``KernelLineTrace``): the levels at the start and each change after, stamped by the
/// guest's monotonic clock. Pure: every reading of the LEDs is a function of it.
///
/// Readings count the scan's *visits* rather than time: a visit is one stretch in which a row
/// line is on, and a cell is lit in a visit when its columns light it as the visit ends (the
/// board changes columns only while every row is off). A dim LED is lit in one visit of its row
/// in ``DimCycle/frames``, however long each visit lasted: an emulator that stalls the board's
/// scan with a row on makes that visit longer, not more numerous, so the share a reading gives
/// is the one the program chose. What a stall does change is time, and that is measured too:
/// the longest pause between two of the board's writes (``longestPause(from:to:)``).
struct LineRecording: Sendable {
    /// A line set to a level, at a time in nanoseconds of the guest's monotonic clock.
    struct Change: Sendable, Hashable {
        var time: Int64
        var line: LineOffset
        var isHigh: Bool
    }

    /// One stretch of a row line on: when it began and ended, and the cells of its row lit as
    /// it ended (red, green; by column).
    struct Visit: Sendable, Hashable {
        var start: Int64
        var end: Int64
        var red: [Bool]
        var green: [Bool]
        /// The status LEDs' levels as the visit ended.
        var x: Bool
        var o: Bool
    }

    let pins: PinMap
    /// The stretch recorded: ``changes`` before `start` only bring the levels up to date.
    let start: Int64
    let end: Int64
    /// The levels read at the start (the chip's own values, before the changes).
    let initial: LineLevels
    /// Every change in the order the kernel made them.
    let changes: [Change]
    /// Changes the kernel could not record (its buffer full): a reading of such a recording
    /// would be of a stretch with holes, so ``isWhole`` is false.
    let lost: Int

    var isWhole: Bool { lost == 0 }

    /// The levels after each change, with its time: the recording as a run of writes.
    func levels() -> [(time: Int64, levels: LineLevels)] {
        var levels = initial
        return changes.map { change in
            levels[change.line] = LineLevel(change.isHigh)
            return (change.time, levels)
        }
    }

    /// The levels at `time` (those of the last change at or before it).
    func levels(at time: Int64) -> LineLevels {
        var levels = initial
        for change in changes where change.time <= time { levels[change.line] = LineLevel(change.isHigh) }
        return levels
    }

    /// Every visit of every row, in the order they began: one still on as the recording ends
    /// ends there (a board that stopped with a row lit shows it, in every stretch after).
    ///
    /// A cell is lit in a visit by the levels its row held longest while on (the later of two
    /// held alike, so that with a clock that stamps a whole visit alike it is the last): the
    /// write that lights a row and the blank that ends it set the columns too, one line after
    /// another, and which of their instants come first in the record is the request's order of
    /// lines, not the board's choice.
    func visits() -> [[Visit]] {
        var visits: [[Visit]] = [[], [], []]
        var open: [OpenVisit?] = pins.rows.map { pins.rowPolarity.isActive(initial[$0]) ? OpenVisit(start: start, levels: initial) : nil }
        var levels = initial
        for change in changes {
            let before = levels
            levels[change.line] = LineLevel(change.isHigh)
            for row in 0..<3 {
                let line = pins.rows[row]
                if line == change.line, !pins.rowPolarity.isActive(before[line]), pins.rowPolarity.isActive(levels[line]) {
                    open[row] = OpenVisit(start: change.time, levels: levels)
                } else if line == change.line, pins.rowPolarity.isActive(before[line]), !pins.rowPolarity.isActive(levels[line]),
                          var visit = open[row] {
                    visit.held(until: change.time)
                    visits[row].append(self.visit(row: row, from: visit.start, to: change.time, at: visit.longest))
                    open[row] = nil
                } else {
                    open[row]?.held(until: change.time, then: levels)
                }
            }
        }
        for row in 0..<3 {
            guard var visit = open[row] else { continue }
            visit.held(until: end)
            visits[row].append(self.visit(row: row, from: visit.start, to: end, at: visit.longest))
        }
        return visits
    }

    /// A visit under way: the levels it holds now and since when, and those held longest so far.
    private struct OpenVisit {
        let start: Int64
        var levels: LineLevels, since: Int64
        var longest: LineLevels, longestFor: Int64 = -1

        init(start: Int64, levels: LineLevels) {
            self.start = start
            self.levels = levels
            since = start
            longest = levels
        }

        /// The present levels held until `time`, then `next` (if any) from then on.
        mutating func held(until time: Int64, then next: LineLevels? = nil) {
            if time - since >= longestFor {
                longest = levels
                longestFor = time - since
            }
            if let next {
                levels = next
                since = time
            }
        }
    }

    private func visit(row: Int, from start: Int64, to end: Int64, at levels: LineLevels) -> Visit {
        let colors = (0..<3).map { pins.color(ofCell: row * 3 + $0, at: levels) }
        return Visit(
            start: start, end: end, red: colors.map(\.isRedLit), green: colors.map(\.isGreenLit),
            x: pins.statusPolarity.isActive(levels[pins.xStatus]), o: pins.statusPolarity.isActive(levels[pins.oStatus]))
    }

    /// The longest time in `from..<to` in which the board wrote nothing, in nanoseconds: while
    /// it scans, how long the emulator kept the scan from stepping, at most (a board showing a
    /// frame that needs no scan writes nothing for as long as it shows it).
    func longestPause(from: Int64, to: Int64) -> Int64 {
        let times = [from] + changes.map(\.time).filter { $0 > from && $0 < to } + [to]
        return zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
    }

    /// Whether any LED line was on at any moment of the recording.
    var anyLit: Bool {
        pins.outputOffsets.contains { pins.isActive(initial, $0) } || changes.contains { change in
            pins.outputOffsets.contains(change.line) && pins.isActive(change.isHigh ? .high : .low, change.line)
        }
    }
}

extension PinMap {
    /// Whether the output `line` is on at `levels` (each group by its own polarity).
    func isActive(_ levels: LineLevels, _ line: LineOffset) -> Bool { isActive(levels[line], line) }

    func isActive(_ level: LineLevel, _ line: LineOffset) -> Bool {
        if rows.contains(line) { return rowPolarity.isActive(level) }
        if redColumns.contains(line) || greenColumns.contains(line) { return columnPolarity.isActive(level) }
        return statusPolarity.isActive(level)
    }
}
