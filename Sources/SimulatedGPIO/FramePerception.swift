import Basics
import Devices
import GPIO
import Lights
import Reactive

/// What an eye would see of the board, decoded from the levels of its output lines over time.
///
/// The matrix is never fully lit at any instant — one row at a time — so a single sample of the
/// lines says little. Like the eye, this integrates over a window: a cell counts as lit in red
/// (or green) when its row and its red (green) column were both on for at least a sixth of the
/// window, half of the third a row gets in a full scan. A status LED counts as lit when on for at
/// least half the window.
public struct FramePerception: Sendable {
    public let pins: PinMap
    /// How long the eye integrates.
    public let window: Duration

    public init(pins: PinMap, window: Duration = .milliseconds(30)) {
        self.pins = pins
        self.window = window
    }

    /// The frame seen over the window ending at `end`, from the levels at the window's start
    /// and the writes within it.
    public func frame(initial: LineLevels, writes: [OutputWrite], endingAt end: MonotonicInstant) -> Frame {
        let start = end - window
        var red = [Int64](repeating: 0, count: 9)
        var green = [Int64](repeating: 0, count: 9)
        var x: Int64 = 0, o: Int64 = 0
        var levels = initial
        var time = start

        func accumulate(until next: MonotonicInstant) {
            let span = (min(next, end) - max(time, start)).nanoseconds
            guard span > 0 else { return }
            if pins.statusPolarity.isActive(levels[pins.xStatus]) { x += span }
            if pins.statusPolarity.isActive(levels[pins.oStatus]) { o += span }
            for (index, color) in pins.cellColors(at: levels).enumerated() {
                if color.isRedLit { red[index] += span }
                if color.isGreenLit { green[index] += span }
            }
        }

        for write in writes where write.time <= end {
            if write.time > start { accumulate(until: write.time) }
            levels = write.levels
            time = max(write.time, start)
        }
        accumulate(until: end)

        let total = max(window.nanoseconds, 1)
        let cells = (0..<9).map { LEDColor(red: red[$0] * 6 >= total, green: green[$0] * 6 >= total) }
        return Frame(cells: cells, xStatus: x * 2 >= total, oStatus: o * 2 >= total)
    }

    /// The frame seen on `chip` over the window ending at `end`.
    public func frame(on chip: SimulatedChip, endingAt end: MonotonicInstant) -> Frame {
        let history = chip.outputHistory(from: end - window, to: end)
        return frame(initial: history.initial, writes: history.writes, endingAt: end)
    }
}
