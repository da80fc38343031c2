import Devices
import Foundation
import GPIO
import Lights

/// Decodes what the board's LEDs show from sampled gpio-sim line values.
///
/// The sampled levels are the gpio-sim lines' (the default, active-high wiring), and a cell is
/// judged lit by ``PinMap/color(ofCell:at:)``, as the simulation's eye judges it. Samples come
/// at arbitrary moments of the row scan, and under emulation the scan itself runs
/// unevenly (the guest's scheduler may pause it for milliseconds), so a cell is judged against
/// its own row, visit by visit (each time the row is seen to come on): lit in red when the red
/// column was on in at least an eighth of its row's visits (half of a dim LED's share, one frame
/// in four). Visits, not samples: a scan that stalls in one frame counts once.
///
/// Brightness is judged over the stretch in which the cell was seen lit at all, from its first
/// lit visit to its last: full when lit in at least half of its row's visits there, dim when
/// less. So a cell that starts or stops blinking within the window still reads as the
/// brightness it had, not as a dimmer one. A status LED alike, against all samples.
struct LEDSampler {
    let sim: GPIOSim
    let pins: PinMap
    private let rows: [ValueReader]
    private let red: [ValueReader]
    private let green: [ValueReader]
    private let x: ValueReader
    private let o: ValueReader

    init?(sim: GPIOSim, pins: PinMap) {
        func readers(_ offsets: [LineOffset]) -> [ValueReader]? {
            let opened = offsets.compactMap { sim.valueReader(Int($0.rawValue)) }
            return opened.count == offsets.count ? opened : nil
        }
        guard let rows = readers(pins.rows), let red = readers(pins.redColumns),
              let green = readers(pins.greenColumns),
              let status = readers([pins.xStatus, pins.oStatus]) else { return nil }
        self.sim = sim
        self.pins = pins
        self.rows = rows
        self.red = red
        self.green = green
        x = status[0]
        o = status[1]
    }

    /// Samples for `duration`, and, once the scan has been seen at all, on (up to twice as long)
    /// until it has been seen to light every row at least twice; then returns the frame seen.
    ///
    /// While anything is lit the scan lights every row line in turn, marks or none (a dark
    /// matrix is not scanned at all), so with some rows seen and another never, the eye did not
    /// look long enough: on a host busy enough to starve the emulator, a 200 ms window can hold
    /// fewer scan cycles than rows. A scan that stops for longer than the limit still shows as
    /// the rows it left dark.
    func frame(over duration: TimeInterval) -> Frame {
        // Counted per visit of a row (each time it is seen to come on), not per sample: a scan
        // that stalls for a while in one frame is one visit, not a window's worth of samples.
        var redVisits = [Int](repeating: 0, count: 9), greenVisits = [Int](repeating: 0, count: 9)
        var cellLit = [Stretch](repeating: Stretch(), count: 9)
        var visits = [Int](repeating: 0, count: 3), rowWasOn = [Bool](repeating: false, count: 3)
        var seenInVisit = [(red: Bool, green: Bool)](repeating: (false, false), count: 9)
        var xLit = Stretch(), oLit = Stretch(), samples = 0
        let enough = 2 * Brightness.dimFrames
        let started = Date()
        let deadline = started.addingTimeInterval(duration), limit = started.addingTimeInterval(2 * duration)
        while true {
            let now = Date()
            // Once any row has been seen lit the scan is running (a dark matrix is not scanned at
            // all), and it lights every row in turn: look on until each has been visited often
            // enough to hold two of the dim cycle's lit frames.
            let scanHalfSeen = visits.contains { $0 > 0 } && visits.contains { $0 < enough }
            guard now < deadline || (now < limit && scanHalfSeen) else { break }
            samples += 1
            if x.isHigh { xLit.seen(at: samples) }
            if o.isHigh { oLit.seen(at: samples) }
            for row in 0..<3 {
                guard rows[row].isHigh else {
                    rowWasOn[row] = false
                    continue
                }
                var levels = LineLevels()
                levels[pins.rows[row]] = .high
                for column in 0..<3 {
                    levels[pins.redColumns[column]] = LineLevel(red[column].isHigh)
                    levels[pins.greenColumns[column]] = LineLevel(green[column].isHigh)
                }
                // Only a sample in which the row is still on after reading the columns counts:
                // the scan may have moved on in between.
                guard rows[row].isHigh else { continue }
                if !rowWasOn[row] {
                    rowWasOn[row] = true
                    visits[row] += 1
                    for index in row * 3..<row * 3 + 3 { seenInVisit[index] = (false, false) }
                }
                for index in row * 3..<row * 3 + 3 {
                    let color = pins.color(ofCell: index, at: levels)
                    if color.isRedLit && !seenInVisit[index].red { redVisits[index] += 1 }
                    if color.isGreenLit && !seenInVisit[index].green { greenVisits[index] += 1 }
                    if color.isLit && !(seenInVisit[index].red || seenInVisit[index].green) { cellLit[index].seen(at: visits[row]) }
                    seenInVisit[index].red = seenInVisit[index].red || color.isRedLit
                    seenInVisit[index].green = seenInVisit[index].green || color.isGreenLit
                }
            }
        }
        var cells = FrameCells()
        for index in 0..<9 {
            let seen = visits[index / 3]
            guard seen > 0 else { continue }
            let color = LEDColor(red: redVisits[index] * 2 * Brightness.dimFrames >= seen,
                                 green: greenVisits[index] * 2 * Brightness.dimFrames >= seen)
            cells.set(color, cellLit[index].brightness, at: index)
        }
        let total = max(samples, 1)
        return Frame(
            cells: cells, xStatus: xLit.count * 2 * Brightness.dimFrames >= total, oStatus: oLit.count * 2 * Brightness.dimFrames >= total,
            xStatusBrightness: xLit.brightness, oStatusBrightness: oLit.brightness)
    }

    /// The samples in which one LED was seen lit: how many, and the first and last of them.
    private struct Stretch {
        var count = 0, first = 0, last = 0

        mutating func seen(at sample: Int) {
            if count == 0 { first = sample }
            last = sample
            count += 1
        }

        /// Full when lit in at least half the samples from its first lit one to its last.
        var brightness: Brightness { count * 2 >= last - first + 1 ? .full : .dim }
    }

    /// How one LED was seen over a stretch of sampling: the share of its chances it was lit in
    /// (a cell: the samples taken while its row was on; a status LED: all samples), and how many
    /// times a second it came on after being seen dark (a lower bound: a sample may miss a
    /// short dark gap, never invent one).
    struct Timing: Encodable {
        var duty: Double
        var hz: Double
    }

    /// The timing of every lit cell (by index in reading order) and of each lit status LED, over
    /// `duration`.
    func timing(over duration: TimeInterval) -> (cells: [Int: Timing], x: Timing?, o: Timing?) {
        var lit = [Int](repeating: 0, count: 9), chances = [Int](repeating: 0, count: 9), onsets = [Int](repeating: 0, count: 9)
        var wasLit = [Bool](repeating: false, count: 9)
        var status = [(on: 0, onsets: 0, wasOn: false), (on: 0, onsets: 0, wasOn: false)]
        var samples = 0
        let started = Date()
        while Date().timeIntervalSince(started) < duration {
            samples += 1
            for (index, line) in [x, o].enumerated() {
                let on = line.isHigh
                if on { status[index].on += 1 }
                if on && !status[index].wasOn { status[index].onsets += 1 }
                status[index].wasOn = on
            }
            var litNow = [Bool](repeating: false, count: 9)
            for row in 0..<3 where rows[row].isHigh {
                let columns = (0..<3).map { (red: red[$0].isHigh, green: green[$0].isHigh) }
                guard rows[row].isHigh else { continue }
                for column in 0..<3 {
                    let index = row * 3 + column
                    chances[index] += 1
                    if columns[column].red || columns[column].green {
                        lit[index] += 1
                        litNow[index] = true
                    }
                }
            }
            for index in 0..<9 {
                if litNow[index] && !wasLit[index] { onsets[index] += 1 }
                wasLit[index] = litNow[index]
            }
        }
        let seconds = max(Date().timeIntervalSince(started), 1e-3)
        var cells: [Int: Timing] = [:]
        for index in 0..<9 where lit[index] > 0 {
            cells[index] = Timing(duty: Double(lit[index]) / Double(max(chances[index], 1)), hz: Double(onsets[index]) / seconds)
        }
        func statusTiming(_ index: Int) -> Timing? {
            status[index].on == 0 ? nil : Timing(duty: Double(status[index].on) / Double(samples), hz: Double(status[index].onsets) / seconds)
        }
        return (cells, statusTiming(0), statusTiming(1))
    }

    /// Whether every LED line is low right now.
    var allOff: Bool { pins.outputOffsets.allSatisfy { !sim.value(Int($0.rawValue)) } }
}
