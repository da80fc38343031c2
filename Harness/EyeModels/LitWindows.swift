import Basics
import Devices
import GPIO
import Lights
import SimulatedGPIO

/// How long each die of the board was lit in each of a run of equal windows: the raw light an
/// eye integrates, before any eye weighs it. Colour is still here (red and green dies apart) so
/// that each eye can weigh them its own way (``MonochromeEye``); nothing here judges.
///
/// A window of one whole dim cycle (``cycleLength(rowPeriod:dimCycle:)``) holds the same light wherever it
/// starts while the frame stays the same: the scan repeats itself every dim cycle, and the
/// integral of a periodic signal over one whole period does not depend on its phase. So a
/// window is exact, not an estimate, and an LED's windows differ only where the frame changed.
public struct LitWindows: Sendable, Hashable {
    /// The dies, in the order of ``shares``: the nine cells' red dies, the nine green dies (both
    /// in reading order), then the X and the O status LED.
    public static let dieCount = 20
    public static func red(_ cell: Int) -> Int { cell }
    public static func green(_ cell: Int) -> Int { 9 + cell }
    public static let xStatus = 18
    public static let oStatus = 19

    public let start: MonotonicInstant
    public let window: Duration
    /// How many windows.
    public let count: Int
    /// The share of each window (0...1) each die was lit: window by window, ``dieCount`` each.
    private let shares: [Double]

    /// Windows from `start`, `shares` holding ``dieCount`` for each in turn.
    public init(start: MonotonicInstant, window: Duration, shares: [Double]) {
        require(shares.count % Self.dieCount == 0, "LitWindows: \(Self.dieCount) shares a window")
        self.start = start
        self.window = window
        self.shares = shares
        count = shares.count / Self.dieCount
    }

    /// The share of window `index` that `die` was lit.
    public func share(of die: Int, in index: Int) -> Double { shares[index * Self.dieCount + die] }

    /// One die's shares, window by window.
    public func series(of die: Int) -> [Double] { (0..<count).map { share(of: die, in: $0) } }

    /// How long one whole `dimCycle` of the scan lasts at `rowPeriod`: its frames of three rows.
    /// A dim LED is lit in one frame of it, a full one in every frame.
    public static func cycleLength(rowPeriod: Duration, dimCycle: DimCycle) -> Duration { rowPeriod * (3 * dimCycle.frames) }

    /// The lit shares in `count` windows of `window` from `start`, from the output levels at
    /// `start` and the writes after it (in time order; those outside the windows are skipped).
    public static func measure(
        pins: PinMap, initial: LineLevels, writes: [OutputWrite], from start: MonotonicInstant, window: Duration, count: Int
    ) -> LitWindows {
        var dies = DieMasks(pins: pins)
        // In whole nanoseconds, as the chip's clock counts: a row period of a third of a
        // microsecond's multiple would otherwise leave the windows' end a little past the last.
        let width = max(window.nanoseconds, 1), origin = start.nanoseconds
        var lit = [Int64](repeating: 0, count: count * dieCount)
        var levels = initial, time = start.nanoseconds
        let end = origin + width * Int64(count)

        func accumulate(until next: Int64) {
            let on = dies.lit(at: levels)
            var from = max(time, origin) - origin
            let to = min(next, end) - origin
            while on != 0 && from < to {
                let index = Int(from / width), edge = min(Int64(index + 1) * width, to)
                var rest = on
                while rest != 0 {
                    lit[index * dieCount + rest.trailingZeroBitCount] += edge - from
                    rest &= rest - 1
                }
                from = edge
            }
        }

        for write in writes where write.time.nanoseconds <= end {
            if write.time.nanoseconds > origin { accumulate(until: write.time.nanoseconds) }
            levels = write.levels
            time = max(write.time.nanoseconds, origin)
        }
        accumulate(until: end)
        return LitWindows(start: start, window: .nanoseconds(width), shares: lit.map { Double($0) / Double(width) })
    }

    /// The same, read from `chip`'s history: the whole windows that fit between `start` and `end`.
    public static func measure(
        on chip: SimulatedChip, pins: PinMap, from start: MonotonicInstant, to end: MonotonicInstant, window: Duration
    ) -> LitWindows {
        let width = max(window.nanoseconds, 1), count = max(0, Int((end - start).nanoseconds / width))
        let history = chip.outputHistory(from: start, to: start + .nanoseconds(width * Int64(count)))
        return measure(pins: pins, initial: history.initial, writes: history.writes, from: start, window: window, count: count)
    }
}

/// For each die, the lines that must all be active for it to be lit, as bit masks over the
/// levels with the active-low lines flipped: the pin map's one definition of a lit cell
/// (``PinMap/color(ofCell:at:)``), worked out once so that each write costs a few masks; and
/// the dies lit at each set of levels seen, kept (a scan repeats a handful of them).
private struct DieMasks {
    let activeLow: UInt64
    let masks: [UInt64]
    private var known: [UInt64: UInt32] = [:]

    init(pins: PinMap) {
        func bit(_ offset: LineOffset) -> UInt64 { 1 << UInt64(offset.rawValue) }
        var low: UInt64 = 0
        for (lines, polarity) in [(pins.rows, pins.rowPolarity), (pins.redColumns + pins.greenColumns, pins.columnPolarity),
                                  ([pins.xStatus, pins.oStatus], pins.statusPolarity)] where polarity == .activeLow {
            for line in lines { low |= bit(line) }
        }
        activeLow = low
        let red = (0..<9).map { bit(pins.rows[$0 / 3]) | bit(pins.redColumns[$0 % 3]) }
        let green = (0..<9).map { bit(pins.rows[$0 / 3]) | bit(pins.greenColumns[$0 % 3]) }
        masks = red + green + [bit(pins.xStatus), bit(pins.oStatus)]
    }

    /// The dies lit at `levels`, one bit each in ``LitWindows``' order.
    mutating func lit(at levels: LineLevels) -> UInt32 {
        if let on = known[levels.bits] { return on }
        let active = levels.bits ^ activeLow
        var on: UInt32 = 0
        for die in masks.indices where active & masks[die] == masks[die] { on |= 1 << UInt32(die) }
        known[levels.bits] = on
        return on
    }
}
