import Basics
import Devices
import GPIO
import Lights
import SimulatedGPIO

/// What an eye would see of the board, decoded from the levels of its output lines over time.
///
/// The matrix is never fully lit at any instant — one row at a time — so a single sample of the
/// lines says little. Like the eye, this integrates over a window. A cell lit at full brightness
/// has its row and column on for about a third of the window, a dim one for a third of one
/// frame in ``dimFrames``, a half one for a third of half of them; each judgement is drawn
/// halfway to what it tells apart: a die counts as lit when on for at least half the dim share,
/// and a lit cell takes the brightness whose share is nearest.
/// A status LED alike, against the whole window.
public struct FramePerception: Sendable {
    public let pins: PinMap
    /// How long the eye integrates.
    public let window: Duration
    /// A dim LED is lit one frame in this many (the board's ``DimCycle``).
    public let dimFrames: Int

    /// How long an eye sums light over, by default: the row scan's flicker is far faster, a
    /// refused press's and a game's end far slower.
    public static let eyeWindow: Duration = .milliseconds(30)

    public init(pins: PinMap, window: Duration = Self.eyeWindow, dimCycle: DimCycle = .standard) {
        self.pins = pins
        self.window = window
        self.dimFrames = dimCycle.frames
    }

    /// How long each die, each cell as a whole and each status LED was lit within a window.
    private struct LitTimes {
        var red = [Int64](repeating: 0, count: 9), green = [Int64](repeating: 0, count: 9)
        var cell = [Int64](repeating: 0, count: 9)
        var x: Int64 = 0, o: Int64 = 0
    }

    private func litTimes(initial: LineLevels, writes: [OutputWrite], endingAt end: MonotonicInstant) -> LitTimes {
        let start = end - window
        var lit = LitTimes()
        var levels = initial
        var time = start

        func accumulate(until next: MonotonicInstant) {
            let span = (min(next, end) - max(time, start)).nanoseconds
            guard span > 0 else { return }
            if pins.statusPolarity.isActive(levels[pins.xStatus]) { lit.x += span }
            if pins.statusPolarity.isActive(levels[pins.oStatus]) { lit.o += span }
            for (index, color) in pins.cellColors(at: levels).enumerated() {
                if color.isRedLit { lit.red[index] += span }
                if color.isGreenLit { lit.green[index] += span }
                if color.isLit { lit.cell[index] += span }
            }
        }

        for write in writes where write.time <= end {
            if write.time > start { accumulate(until: write.time) }
            levels = write.levels
            time = max(write.time, start)
        }
        accumulate(until: end)
        return lit
    }

    /// Whether `time` of the window is enough to count a die as lit (half a dim share), and
    /// which brightness its share is nearest: dim, half or full, the judgement drawn halfway
    /// between each two (a cycle of two frames puts dim at half of full, and half on dim);
    /// `share` is the most the LED can get: a third of the window for a cell, all of it for a
    /// status LED.
    private func judge(_ time: Int64, share: Int64) -> (lit: Bool, brightness: Brightness) {
        let total = max(window.nanoseconds, 1), cycle = DimCycle(frames: dimFrames), frames = Int64(dimFrames)
        let lit = time * 2 * share * frames >= total
        // The lit frames a cycle would give this time: time / total × frames, scaled by `share`.
        let seen = Double(time * share * frames) / Double(total)
        let nearest = [Brightness.dim, .half, .full].min { a, b in
            abs(seen - Double(cycle.litFrames(of: a))) < abs(seen - Double(cycle.litFrames(of: b)))
        } ?? .full
        return (lit, nearest)
    }

    /// The frame seen over the window ending at `end`, from the levels at the window's start
    /// and the writes within it.
    public func frame(initial: LineLevels, writes: [OutputWrite], endingAt end: MonotonicInstant) -> Frame {
        let lit = litTimes(initial: initial, writes: writes, endingAt: end)
        var cells = FrameCells()
        for index in 0..<9 {
            let red = judge(lit.red[index], share: 3), green = judge(lit.green[index], share: 3)
            cells.set(LEDColor(red: red.lit, green: green.lit), judge(lit.cell[index], share: 3).brightness, at: index)
        }
        let x = judge(lit.x, share: 1), o = judge(lit.o, share: 1)
        return Frame(cells: cells, xStatus: x.lit, oStatus: o.lit, xStatusBrightness: x.brightness, oStatusBrightness: o.brightness)
    }

    /// The frame seen on `chip` over the window ending at `end`.
    public func frame(on chip: SimulatedChip, endingAt end: MonotonicInstant) -> Frame {
        let history = chip.outputHistory(from: end - window, to: end)
        return frame(initial: history.initial, writes: history.writes, endingAt: end)
    }
}
