import Basics
import Devices
import GPIO
import Lights
import WiredBoard

/// What the LEDs showed over a stretch of a ``LineRecording``, counted per visit of the scan.
extension LineRecording {
    /// A dim LED is lit one frame in this many: the default LEDs' cycle, which every VM's
    /// configuration (the default file) keeps.
    static let dimCycle = DimCycle.standard

    /// How one LED fared in its chances (visits, in order): lit in how many, and how many
    /// chances its lit stretches held: the runs of chances from a lit one to a lit one with no
    /// dark run between of two dim cycles or more (a dim LED is dark at most a cycle at a time;
    /// a blink's dark phase, far longer, separates two stretches).
    struct Chances {
        var lit = 0, total = 0, span = 0
        /// The most chances in a row it was lit in.
        var longestRun = 0
        /// Chances in a frame: one for a cell (its row's visits), three for a status LED (every
        /// row's); a time in µs counts one.
        var perFrame = 1

        init(_ litInEach: [Bool], perFrame: Int = 1) {
            self.perFrame = perFrame
            total = litInEach.count
            lit = litInEach.count(where: { $0 })
            var dark = 0, run = 0, seenLit = false
            for isLit in litInEach {
                if isLit {
                    span += seenLit && dark < 2 * dimCycle.frames * perFrame ? dark + 1 : 1
                    (dark, seenLit, run) = (0, true, run + 1)
                    longestRun = max(longestRun, run)
                } else {
                    (dark, run) = (dark + 1, 0)
                }
            }
        }

        init(lit: Int, total: Int, span: Int) {
            (self.lit, self.total, self.span) = (lit, total, span)
        }

        /// Lit when on in at least half a dim LED's share of all its chances. Its brightness the
        /// one whose share is nearest to its share of its lit stretches' chances, so that an LED
        /// that starts, stops or blinks within the stretch reads as the brightness it had while
        /// it was on. A stretch of less than a dim cycle's chances (a starved scan's) cannot
        /// show a dim or half LED's dark frames: full if lit in more chances in a row than a
        /// half LED ever is (half a cycle's), else judged by its share of all its chances.
        var judged: (lit: Bool, brightness: Brightness) {
            guard total > 0, span > 0 else { return (false, .full) }
            let cycle = dimCycle.frames * perFrame, share = Double(lit) / Double(span >= cycle ? span : total)
            let nearest = [Brightness.dim, .half, .full].min { abs(share - dimCycle.duty(of: $0)) < abs(share - dimCycle.duty(of: $1)) } ?? .full
            let isLit = Double(lit) * 2 >= dimCycle.duty(of: .dim) * Double(total)
            return (isLit, span < cycle && 2 * longestRun > cycle ? .full : nearest)
        }
    }

    /// The frame shown from `from` to `to` (ns): each cell judged by its row's visits in the
    /// stretch (``Chances``), each die alike; the status LEDs by all those visits (every row
    /// write sets them), or, with no row visited (a dark matrix: nothing is scanned), by their
    /// pulses (``statusLight(from:to:line:)``), which a starved emulator may have left unreadable.
    func frame(from: Int64, to: Int64, visits all: [[Visit]]) -> Result<Frame, Starved> {
        let visits = all.map { $0.filter { $0.start < to && $0.end > from } }
        var cells = FrameCells()
        for index in 0..<9 {
            let row = visits[index / 3], column = index % 3
            let red = Chances(row.map { $0.red[column] }).judged, green = Chances(row.map { $0.green[column] }).judged
            let either = Chances(row.map { $0.red[column] || $0.green[column] }).judged
            cells.set(LEDColor(red: red.lit, green: green.lit), either.brightness, at: index)
        }
        let steps = visits.flatMap { $0 }.sorted { $0.start < $1.start }
        let x: (lit: Bool, brightness: Brightness), o: (lit: Bool, brightness: Brightness)
        if steps.isEmpty {
            guard let xLight = statusLight(from: from, to: to, line: pins.xStatus), let oLight = statusLight(from: from, to: to, line: pins.oStatus) else {
                return .failure(Starved(from: from, to: to))
            }
            (x, o) = (xLight.judged, oLight.judged)
        } else {
            (x, o) = (Chances(steps.map(\.x), perFrame: 3).judged, Chances(steps.map(\.o), perFrame: 3).judged)
        }
        return .success(Frame(cells: cells, xStatus: x.lit, oStatus: o.lit, xStatusBrightness: x.brightness, oStatusBrightness: o.brightness))
    }

    /// A stretch whose status LEDs pulsed but not one pulse in two came through whole: the
    /// emulator, not the board, decided what they showed.
    struct Starved: Error, CustomStringConvertible {
        var from: Int64, to: Int64
        var description: String { "starved: the emulator cut the status LEDs' pulses short or stalled them from \(from / 1_000_000) to \(to / 1_000_000) ms" }
    }

    /// A status LED over a dark matrix, in microseconds: steady or changed once, the time it was
    /// on; pulsed (a dim or half one, on its own line: lit a frame's time, ``frameTime``, at the
    /// start of each ``cycleTime``), its median time on against its median cycle, over the
    /// pulses the emulator let through whole. A stall lengthens a phase, and the two timers it
    /// delayed then fire together and cut the next one to nothing; a pulse whose cycle is not
    /// within half of the board's, or with either phase under half a frame, is the emulator's,
    /// not the board's. `nil` (starved) when it pulsed but fewer than two pulses were whole.
    private func statusLight(from: Int64, to: Int64, line: LineOffset) -> Chances? {
        var isOn = pins.statusPolarity.isActive(levels(at: from)[line]), since = from
        var pulses: [(off: Int64, on: Int64)] = [], offBefore: Int64?, onTime: Int64 = 0, first: Int64?, last = from
        for change in changes where change.line == line && change.time > from && change.time < to {
            let now = pins.statusPolarity.isActive(LineLevel(change.isHigh))
            guard now != isOn else { continue }
            let phase = change.time - since
            if isOn {
                onTime += phase
                if first == nil { first = since }
                last = change.time
                if let off = offBefore { pulses.append((off, phase)) }
                offBefore = nil
            } else if since > from {
                // Whole phases only: the first began before the stretch.
                offBefore = phase
            }
            (isOn, since) = (now, change.time)
        }
        if isOn {
            onTime += to - since
            if first == nil { first = since }
            last = to
        }
        guard pulses.count >= 2 else {
            let span = Int(first.map { last - $0 } ?? 0) / 1000
            return Chances(lit: Int(onTime / 1000), total: Int((to - from) / 1000), span: span)
        }
        let frame = Self.frameTime, cycle = frame * Int64(Self.dimCycle.frames)
        let whole = pulses.filter { 2 * ($0.off + $0.on) >= cycle && 2 * ($0.off + $0.on) <= 3 * cycle && 2 * min($0.off, $0.on) >= frame }
        guard whole.count >= 2 else { return nil }
        func median(_ spans: [Int64]) -> Int { Int(spans.sorted()[spans.count / 2] / 1000) }
        let cycles = median(whole.map { $0.off + $0.on })
        return Chances(lit: median(whole.map(\.on)), total: cycles, span: cycles)
    }

    /// A frame's time of the scan (three rows), ns: the default configuration's, which every
    /// VM keeps.
    static let frameTime = 3 * BoardSettings().scanRowPeriod.nanoseconds

    /// Each lit LED's share of its chances and how often a second it came on, and the scan's
    /// frame rate, over the whole recording (see ``Timings``).
    func timings() -> Timings {
        let visits = visits().map { $0.filter { $0.end > start } }
        let seconds = Double(max(end - start, 1)) / 1e9
        var cells: [String: Timing] = [:]
        for index in 0..<9 {
            let row = visits[index / 3], column = index % 3
            let lit = row.count { $0.red[column] || $0.green[column] }
            guard Chances(row.map { $0.red[column] || $0.green[column] }).judged.lit else { continue }
            cells["\(index)"] = Timing(duty: Double(lit) / Double(row.count), hz: Double(lit) / seconds)
        }
        // The status LEDs in the order of the scan's steps: a run of lit steps is one time on.
        let steps = visits.flatMap { $0 }.sorted { $0.start < $1.start }
        func status(_ isOn: (Visit) -> Bool) -> Timing? {
            let lit = steps.count(where: isOn)
            guard lit > 0 else { return nil }
            let onsets = zip([false] + steps.map(isOn), steps.map(isOn)).count { !$0 && $1 }
            return Timing(duty: Double(lit) / Double(steps.count), hz: Double(onsets) / seconds)
        }
        return Timings(cells: cells, x: status(\.x), o: status(\.o), frameRate: Double(steps.count) / 3 / seconds,
                       longestPauseMs: Double(longestPause(from: start, to: end)) / 1e6)
    }

    /// How one LED was seen over a recording, counted per visit: the share of its row's visits
    /// it was lit in (a status LED: of every row's visits), and how many times a second it came on.
    struct Timing: Encodable {
        var duty: Double
        var hz: Double
    }

    /// What ``timings()`` saw. `frameRate` is the scan's own rate (visits over three, a second
    /// of the guest's clock): an emulator starved by its host runs the scan slow, which is the
    /// machine's doing, not the program's; an LED's rate against it is the program's. Every
    /// visit the board made is counted: the kernel recorded them all.
    struct Timings: Encodable {
        var cells: [String: Timing]
        var x: Timing?
        var o: Timing?
        var frameRate: Double
        /// The longest time the board wrote nothing, ms.
        var longestPauseMs: Double
    }
}
