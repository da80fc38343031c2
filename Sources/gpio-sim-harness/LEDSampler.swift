import Devices
import Foundation
import GPIO
import Lights

/// Decodes what the board's LEDs show from sampled gpio-sim line values.
///
/// The sampled levels are the gpio-sim lines' (the default, active-high wiring), and a cell is
/// judged lit by ``PinMap/color(ofCell:at:)``, as the simulation's eye judges it. Samples come
/// at arbitrary moments of the row scan, and under emulation the scan runs unevenly: the guest
/// may stall it for milliseconds (a stall in one frame fills a window's samples with that frame)
/// and the sampler, sharing the guest's processors, misses whole steps of it (so the steps it
/// does see may fall in step with the dim cycle). So every LED is counted two ways, each wrong
/// in its own circumstances: per sample, and per scan visit (a cell: each time its row is seen
/// to come on; a status LED, set in every row write: each time any row is). Neither can make a
/// dark LED lit or a full one dim; each can hide a dim one's lit frames or lengthen them.
///
/// - Lit (in red, in green) when on in at least half of a dim LED's share of its chances (one
///   frame in ``dimFrames``) counted either way.
/// - Brightness is judged over the stretch in which it was seen lit at all, from its first lit
///   chance to its last, so that an LED that starts or stops blinking within the window reads
///   as the brightness it had: full when lit in at least half its chances there counted both
///   ways, dim when either way says less.
struct LEDSampler {
    let sim: GPIOSim
    let pins: PinMap
    /// A dim LED is lit one frame in this many: the default LEDs' cycle, which the appliance's
    /// configuration (the default file) keeps.
    static let dimFrames = DimCycle.standard.frames
    let rows: [ValueReader]
    let red: [ValueReader]
    let green: [ValueReader]
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
        var seen = Sightings()
        let enough = 2 * LEDSampler.dimFrames
        let started = Date()
        let deadline = started.addingTimeInterval(duration), limit = started.addingTimeInterval(2 * duration)
        while true {
            let now = Date()
            // Once any row has been seen lit the scan is running (a dark matrix is not scanned at
            // all), and it lights every row in turn: look on until each has been visited often
            // enough to hold two of the dim cycle's lit frames.
            let scanHalfSeen = seen.visits.contains { $0 > 0 } && seen.visits.contains { $0 < enough }
            guard now < deadline || (now < limit && scanHalfSeen) else { break }
            seen.samples += 1
            for row in 0..<3 { sample(row, into: &seen) }
            // Read after the rows: the status levels of the step just counted.
            if x.isHigh { seen.x.seen(at: (seen.samples, seen.steps)) }
            if o.isHigh { seen.o.seen(at: (seen.samples, seen.steps)) }
        }
        return seen.frame
    }

    /// One look at `row`: its cells' colours, counted when the row is still on after its columns were read.
    private func sample(_ row: Int, into seen: inout Sightings) {
        guard rows[row].isHigh else {
            seen.rowWasOn[row] = false
            return
        }
        var levels = LineLevels()
        levels[pins.rows[row]] = .high
        for column in 0..<3 {
            levels[pins.redColumns[column]] = LineLevel(self.red[column].isHigh)
            levels[pins.greenColumns[column]] = LineLevel(self.green[column].isHigh)
        }
        // Only a sample in which the row is still on after reading the columns counts:
        // the scan may have moved on in between.
        guard rows[row].isHigh else { return }
        seen.rowSamples[row] += 1
        if !seen.rowWasOn[row] {
            seen.rowWasOn[row] = true
            seen.visits[row] += 1
            seen.steps += 1
        }
        for index in row * 3..<row * 3 + 3 {
            let color = pins.color(ofCell: index, at: levels)
            let chance = (sample: seen.rowSamples[row], visit: seen.visits[row])
            if color.isRedLit { seen.red[index].seen(at: chance) }
            if color.isGreenLit { seen.green[index].seen(at: chance) }
            if color.isLit { seen.cell[index].seen(at: chance) }
        }
    }

    /// Every LED's sightings over a window, and the chances they had: per row, the samples taken
    /// while it was on and its visits; for the status LEDs, all samples and all visits (steps).
    private struct Sightings {
        var red = [Sighting](repeating: Sighting(), count: 9), green = [Sighting](repeating: Sighting(), count: 9)
        var cell = [Sighting](repeating: Sighting(), count: 9)
        var x = Sighting(), o = Sighting()
        var rowSamples = [Int](repeating: 0, count: 3), visits = [Int](repeating: 0, count: 3)
        var rowWasOn = [Bool](repeating: false, count: 3)
        var samples = 0, steps = 0

        var frame: Frame {
            var cells = FrameCells()
            for index in 0..<9 {
                let chances = (samples: rowSamples[index / 3], visits: visits[index / 3])
                guard chances.visits > 0 else { continue }
                cells.set(LEDColor(red: red[index].isLit(of: chances), green: green[index].isLit(of: chances)),
                          cell[index].brightness, at: index)
            }
            let chances = (samples: samples, visits: steps)
            return Frame(
                cells: cells, xStatus: x.isLit(of: chances), oStatus: o.isLit(of: chances),
                xStatusBrightness: x.brightness, oStatusBrightness: o.brightness)
        }
    }

    /// One LED over a window, counted per sample and per scan visit.
    private struct Sighting {
        var bySample = Stretch(), byVisit = Stretch()

        /// Seen lit at this sample, in this visit (0 before the first visit seen: not counted).
        mutating func seen(at chance: (sample: Int, visit: Int)) {
            bySample.seen(at: chance.sample)
            if chance.visit > 0 { byVisit.seen(at: chance.visit) }
        }

        func isLit(of chances: (samples: Int, visits: Int)) -> Bool {
            bySample.count * 2 * LEDSampler.dimFrames >= max(chances.samples, 1)
                || (chances.visits > 0 && byVisit.count * 2 * LEDSampler.dimFrames >= chances.visits)
        }

        /// Full only when full both ways; counted per visit only when visits were seen.
        var brightness: Brightness {
            bySample.brightness == .full && (byVisit.count == 0 || byVisit.brightness == .full) ? .full : .dim
        }
    }

    /// The chances in which one LED was seen lit: how many (each chance once), and the first and
    /// last of them.
    private struct Stretch {
        var count = 0, first = 0, last = 0

        mutating func seen(at chance: Int) {
            guard count == 0 || chance != last else { return }
            if count == 0 { first = chance }
            last = chance
            count += 1
        }

        /// Full when lit in at least half the chances from its first lit one to its last.
        var brightness: Brightness { count * 2 >= last - first + 1 ? .full : .dim }
    }

    /// How one LED was seen over a stretch of sampling, counted per scan visit as
    /// ``frame(over:)`` counts: the share of its chances it was lit in (a cell: its row's visits;
    /// a status LED: every row's visits, since each row write sets it, or all samples when
    /// nothing is scanned) and how many times a second it came on (a cell: each lit visit, as
    /// its row goes dark between visits; a status LED: each lit chance after a dark one).
    struct Timing: Encodable {
        var duty: Double
        var hz: Double
    }

    /// What ``timing(over:)`` saw. `frameRate` is the scan's own rate as seen (row visits over
    /// three, a second): a visit the sampler misses is missed for every LED alike, so an LED's
    /// rate against it is the scan's doing, and the rate itself against the configured one is
    /// the machine's (an emulator starved by its host runs the scan slow).
    struct Timings: Encodable {
        var cells: [String: Timing]
        var x: Timing?
        var o: Timing?
        var frameRate: Double
    }

    /// The timing of every lit cell (by index in reading order; lit as ``frame(over:)`` judges
    /// it, in at least an eighth of its row's visits) and of each lit status LED, over `duration`.
    func timing(over duration: TimeInterval) -> Timings {
        var counts = VisitCounts()
        let started = Date()
        while Date().timeIntervalSince(started) < duration {
            counts.samples += 1
            for row in 0..<3 { countVisit(row, into: &counts) }
            for (index, line) in [x, o].enumerated() where line.isHigh {
                counts.perSample[index].seenLit(at: counts.samples)
                if counts.steps > 0 { counts.perStep[index].seenLit(at: counts.steps) }
            }
        }
        return counts.timings(over: max(Date().timeIntervalSince(started), 1e-3))
    }

    /// One look at `row` for ``timing(over:)``: a new visit, and the cells lit in it.
    private func countVisit(_ row: Int, into counts: inout VisitCounts) {
        guard rows[row].isHigh else {
            counts.rowWasOn[row] = false
            return
        }
        let lit = (0..<3).map { red[$0].isHigh || green[$0].isHigh }
        // As in frame(over:): only a row still on after its columns were read counts.
        guard rows[row].isHigh else { return }
        if !counts.rowWasOn[row] {
            counts.rowWasOn[row] = true
            counts.visits[row] += 1
            counts.steps += 1
            for index in row * 3..<row * 3 + 3 { counts.seenInVisit[index] = false }
        }
        for column in 0..<3 where lit[column] && !counts.seenInVisit[row * 3 + column] {
            counts.seenInVisit[row * 3 + column] = true
            counts.litVisits[row * 3 + column] += 1
        }
    }

    /// What ``timing(over:)`` counts: each cell's lit visits, each row's visits, the status LEDs' lit chances.
    private struct VisitCounts {
        var litVisits = [Int](repeating: 0, count: 9), seenInVisit = [Bool](repeating: false, count: 9)
        var visits = [Int](repeating: 0, count: 3), rowWasOn = [Bool](repeating: false, count: 3)
        var perStep = [LitChances](repeating: LitChances(), count: 2), perSample = [LitChances](repeating: LitChances(), count: 2)
        var steps = 0, samples = 0

        func timings(over seconds: TimeInterval) -> Timings {
            var cells: [String: Timing] = [:]
            for index in 0..<9 {
                let chances = visits[index / 3]
                guard chances > 0, litVisits[index] * 2 * LEDSampler.dimFrames >= chances else { continue }
                cells["\(index)"] = Timing(duty: Double(litVisits[index]) / Double(chances), hz: Double(litVisits[index]) / seconds)
            }
            let (status, chances) = steps > 0 ? (perStep, steps) : (perSample, samples)
            func statusTiming(_ index: Int) -> Timing? {
                status[index].lit == 0 ? nil : Timing(duty: Double(status[index].lit) / Double(max(chances, 1)), hz: Double(status[index].onsets) / seconds)
            }
            return Timings(cells: cells, x: statusTiming(0), o: statusTiming(1), frameRate: Double(steps) / 3 / seconds)
        }
    }

    /// The chances (scan steps or samples, numbered from 1) in which one LED was seen lit: how
    /// many, and how many of them followed a chance in which it was dark.
    private struct LitChances {
        var lit = 0, onsets = 0, last = 0

        mutating func seenLit(at chance: Int) {
            guard chance != last else { return }
            if chance != last + 1 || lit == 0 { onsets += 1 }
            lit += 1
            last = chance
        }
    }

    /// Whether every LED line is low right now.
    var allOff: Bool { pins.outputOffsets.allSatisfy { !sim.value(Int($0.rawValue)) } }
}
