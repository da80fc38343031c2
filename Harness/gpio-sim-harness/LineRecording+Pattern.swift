import BoardSimulation
import EyeModels
import Lights
import ViewModel

extension LineRecording {
    /// One cell's light over a recording, as a person who sees no colour takes it in: in bins of
    /// the guest's monotonic clock, the share of its row's visits that began in the bin in which
    /// either die was lit; read by the simulation's own eye (``PatternReader``, the default
    /// timings' flicker and blink). A bin its row was not visited in, or too seldom to tell a
    /// dim share by, is `nil`: unseen, as when the emulator kept the board from scanning or
    /// slowed it far below its rate; the eye's sum bridges a lone one, but through
    /// an integration's worth of them (30 ms) it sees no phase, so a stretch the emulator starved
    /// reads as too short to tell, never as a pattern the board did not show.
    struct CellPattern: Encodable {
        var binMs: Double
        var levels: [Double?]
        /// The visits of the cell's row in each bin.
        var visits: [Int]
        /// The longest time the board wrote nothing, ms.
        var longestPauseMs: Double
        /// The longest run of unseen bins, ms.
        var longestUnseenMs: Double
        /// "flicker", "blink", "steady", "dark", or why it could not be read.
        var reading: String
        /// The runs of lit levels as the eye sums them (at least half the brightest): start and
        /// length, ms from the start of the recording.
        var litRuns: [[Double]]
    }

    /// The pattern of cell `index` (reading order) in bins of `bin` nanoseconds.
    func pattern(ofCell index: Int, bin: Int64) -> CellPattern {
        let row = index / 3, column = index % 3
        let bins = Int((end - start + bin - 1) / bin)
        var visits = [Int](repeating: 0, count: bins), lit = [Int](repeating: 0, count: bins)
        for visit in self.visits()[row] where visit.start >= start && visit.start < end {
            let slot = Int((visit.start - start) / bin)
            visits[slot] += 1
            if visit.red[column] || visit.green[column] { lit[slot] += 1 }
        }
        // A share of one visit or two says nothing of a dim LED, lit one visit in a cycle: a bin
        // is seen only when the eye's integration up to it held a cycle's worth of its row's
        // visits, as a scan slowed far below its rate would not give.
        let summed = max(1, Int((FramePerception.eyeWindow.nanoseconds + bin / 2) / bin))
        let levels: [Double?] = visits.indices.map { index in
            let recent = visits[max(0, index - summed + 1)...index].reduce(0, +)
            return visits[index] > 0 && recent >= Self.dimCycle.frames ? Double(lit[index]) / Double(visits[index]) : nil
        }
        return Self.read(levels, visits: visits, bin: bin, longestPause: longestPause(from: start, to: end))
    }

    /// The reading of `levels`, with the runs the eye saw lit.
    private static func read(_ levels: [Double?], visits: [Int], bin: Int64, longestPause: Int64) -> CellPattern {
        let reader = PatternReader(window: .nanoseconds(bin), timings: GameTimings())
        // Dark below half a dim mark's share of visits (one frame of the installed cycle); a
        // pattern where it dims to the geometric middle of a refused press's lit phase and the
        // light between (on O's mark, O's own: an eye without colour sees only the share lit).
        let refused = FrameRenderer.light(of: .refused(.o))
        let modulation = refused.map { (dimCycle.duty(of: $0.brightness) / dimCycle.duty(of: $0.betweenBrightness)).squareRoot() } ?? .infinity
        var reading: String
        switch reader.read(levels, darkBelow: dimCycle.duty(of: .dim) / 2, modulation: modulation) {
        case .success(let light): reading = light.pattern?.rawValue ?? "dark"
        case .failure(let problem): reading = problem.description
        }
        let binMs = Double(bin) / 1e6
        let runs = litRuns(reader.integrated(levels), binMs: binMs)
        // A pattern the emulator crossed with a stretch the eye could not see through (its
        // integration, unseen) may have had a phase cut or stretched by the stall, not by the
        // board: it is not a reading of the board's.
        let near = 2 * Double(GameTimings().flickerHalfPeriod.nanoseconds) / 1e6
        let around = runs.isEmpty ? nil : (runs[0][0] - near)...(runs[runs.count - 1][0] + runs[runs.count - 1][1] + near)
        let starved = longestUnseen(levels, binMs: binMs, within: around)
        if ["flicker", "blink"].contains(reading), starved >= Double(reader.integration.nanoseconds) / 1e6 {
            reading = "starved: the scan paused \(Int(starved)) ms within the pattern"
        }
        return CellPattern(
            binMs: binMs, levels: levels, visits: visits, longestPauseMs: Double(longestPause) / 1e6,
            longestUnseenMs: longestUnseen(levels, binMs: binMs, within: nil), reading: reading, litRuns: runs)
    }

    /// The runs of `seen` lit (at least half the brightest): start and length, ms.
    private static func litRuns(_ seen: [Double?], binMs: Double) -> [[Double]] {
        let peak = seen.compactMap { $0 }.max() ?? 0
        var runs: [[Double]] = [], first: Int?
        for (index, level) in (seen + [nil]).enumerated() {
            let isLit = level.map { peak > 0 && $0 * 2 >= peak } ?? false
            if isLit && first == nil { first = index }
            if !isLit, let began = first {
                runs.append([Double(began) * binMs, Double(index - began) * binMs])
                first = nil
            }
        }
        return runs
    }

    /// The longest run of unseen bins ending within `span` (ms; anywhere when `nil`), in ms.
    private static func longestUnseen(_ levels: [Double?], binMs: Double, within span: ClosedRange<Double>?) -> Double {
        var unseen = 0, longest = 0
        for (index, level) in levels.enumerated() {
            unseen = level == nil ? unseen + 1 : 0
            if span?.contains(Double(index) * binMs) ?? true { longest = max(longest, unseen) }
        }
        return Double(longest) * binMs
    }
}
