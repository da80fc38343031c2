import Devices
import GPIO
import Lights

/// What the LEDs showed over a stretch of a ``LineRecording``, counted per visit of the scan.
extension LineRecording {
    /// A dim LED is lit one frame in this many: the default LEDs' cycle, which every VM's
    /// configuration (the default file) keeps.
    static let dimCycle = DimCycle.standard

    /// How one LED fared in its chances (visits, in order): lit in how many, and the chances
    /// from its first lit one to its last.
    struct Chances {
        var lit = 0, total = 0, span = 0

        init(_ litInEach: [Bool]) {
            total = litInEach.count
            lit = litInEach.count(where: { $0 })
            if let first = litInEach.firstIndex(of: true), let last = litInEach.lastIndex(of: true) { span = last - first + 1 }
        }

        init(lit: Int, total: Int, span: Int) {
            (self.lit, self.total, self.span) = (lit, total, span)
        }

        /// Lit when on in at least half a dim LED's share of all its chances; its brightness the
        /// one whose share is nearest to its share of the chances from its first lit one to its
        /// last, so that an LED that starts or stops blinking within the stretch reads as the
        /// brightness it had while it was on.
        var judged: (lit: Bool, brightness: Brightness) {
            guard total > 0, span > 0 else { return (false, .full) }
            let share = Double(lit) / Double(span)
            let nearest = [Brightness.dim, .half, .full].min { abs(share - dimCycle.duty(of: $0)) < abs(share - dimCycle.duty(of: $1)) } ?? .full
            return (Double(lit) * 2 >= dimCycle.duty(of: .dim) * Double(total), nearest)
        }
    }

    /// The frame shown from `from` to `to` (ns): each cell judged by its row's visits that
    /// began in the stretch (``Chances``), each die alike; the status LEDs by all those visits
    /// (every row write sets them), or, with no row visited (a dark matrix: nothing is scanned),
    /// by the time they were on, in microseconds.
    func frame(from: Int64, to: Int64, visits all: [[Visit]]) -> Frame {
        let visits = all.map { $0.filter { $0.start >= from && $0.start < to } }
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
            (x, o) = (statusOnTime(from: from, to: to, line: pins.xStatus).judged, statusOnTime(from: from, to: to, line: pins.oStatus).judged)
        } else {
            (x, o) = (Chances(steps.map(\.x)).judged, Chances(steps.map(\.o)).judged)
        }
        return Frame(cells: cells, xStatus: x.lit, oStatus: o.lit, xStatusBrightness: x.brightness, oStatusBrightness: o.brightness)
    }

    /// How long a status line was on from `from` to `to`, and from when it first came on to when
    /// it last went off, as chances of a microsecond.
    private func statusOnTime(from: Int64, to: Int64, line: LineOffset) -> Chances {
        var isOn = pins.statusPolarity.isActive(levels(at: from)[line]), time = from
        var on: Int64 = 0, first: Int64?, last: Int64 = from
        func passed(until next: Int64) {
            guard isOn, next > time else { return }
            on += next - time
            if first == nil { first = time }
            last = next
        }
        for change in changes where change.line == line && change.time > from && change.time < to {
            passed(until: change.time)
            isOn = pins.statusPolarity.isActive(LineLevel(change.isHigh))
            time = change.time
        }
        passed(until: to)
        let span = first.map { last - $0 } ?? 0
        return Chances(lit: Int(on / 1000), total: Int((to - from) / 1000), span: Int(span / 1000))
    }

    /// Each lit LED's share of its chances and how often a second it came on, and the scan's
    /// frame rate, over the whole recording (see ``Timings``).
    func timings() -> Timings {
        let visits = visits().map { $0.filter { $0.start >= start } }
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
