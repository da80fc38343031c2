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

    /// Every visit of every row that ended within the recording (a row on at its end is not
    /// counted: how it ends is not known), in the order they began.
    func visits() -> [[Visit]] {
        var visits: [[Visit]] = [[], [], []]
        var began: [Int64?] = pins.rows.map { pins.rowPolarity.isActive(initial[$0]) ? start : nil }
        var levels = initial
        for change in changes {
            let before = levels
            levels[change.line] = LineLevel(change.isHigh)
            for (row, line) in pins.rows.enumerated() where line == change.line {
                let wasOn = pins.rowPolarity.isActive(before[line]), isOn = pins.rowPolarity.isActive(levels[line])
                if !wasOn && isOn { began[row] = change.time }
                if wasOn && !isOn, let first = began[row] {
                    visits[row].append(visit(row: row, from: first, to: change.time, at: before))
                    began[row] = nil
                }
            }
        }
        return visits
    }

    private func visit(row: Int, from start: Int64, to end: Int64, at levels: LineLevels) -> Visit {
        let colors = (0..<3).map { pins.color(ofCell: row * 3 + $0, at: levels) }
        return Visit(
            start: start, end: end, red: colors.map(\.isRedLit), green: colors.map(\.isGreenLit),
            x: pins.statusPolarity.isActive(levels[pins.xStatus]), o: pins.statusPolarity.isActive(levels[pins.oStatus]))
    }

    /// The longest time in `from..<to` in which the board wrote nothing while its scan was
    /// running (a row on, or one having been on within the stretch), in nanoseconds: how long
    /// the emulator kept the scan from stepping, at most.
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
