import BoardSimulation
import Foundation
import Lights
import Presentation

extension LEDSampler {
    /// One cell's light over a stretch of sampling, as a person who sees no colour takes it in:
    /// in bins of the guest's monotonic clock, the share of the looks at the cell (samples taken
    /// while its row was on, and still on after its columns were read) in which either die was
    /// lit; read by the simulation's own eye (``PatternReader``, the default timings' flicker and
    /// blink). A bin with too few looks to judge a share by is `nil`: unseen. The eye's sum
    /// bridges a lone one, but through an integration's worth of them (30 ms) it sees no phase,
    /// so a stretch the emulator starved (the sampler, or the board's scan, which then leaves
    /// the row dark) reads as too short to tell, never as a pattern that was not on the lines.
    /// The sampler sleeps a little between samples, to leave the board's scan the processor.
    struct CellPattern: Encodable {
        var binMs: Double
        var levels: [Double?]
        var looks: [Int]
        /// The longest time between two samples, ms.
        var longestGapMs: Double
        /// The longest run of unseen bins, ms.
        var longestUnseenMs: Double
        /// "flicker", "blink", "steady", "dark", or why it could not be read.
        var reading: String
        /// The runs of lit levels as the eye sums them (at least half the brightest): start and
        /// length, ms from the start of sampling.
        var litRuns: [[Double]]
    }

    /// The fewest looks at a cell in a bin that give a share.
    static let fewestLooks = 4

    /// Samples cell `index` (reading order) for `duration` in bins of `bin` seconds.
    func pattern(ofCell index: Int, over duration: TimeInterval, bin: TimeInterval) -> CellPattern {
        let row = index / 3, column = index % 3, bins = Int((duration / bin).rounded(.up))
        var looks = [Int](repeating: 0, count: bins), lit = [Int](repeating: 0, count: bins)
        let started = ProcessInfo.processInfo.systemUptime
        var last = started, longestGap = 0.0
        while true {
            let now = ProcessInfo.processInfo.systemUptime
            let slot = Int((now - started) / bin)
            guard slot < bins else { break }
            longestGap = max(longestGap, now - last)
            last = now
            guard rows[row].isHigh else { continue }
            let on = red[column].isHigh || green[column].isHigh
            guard rows[row].isHigh else { continue }
            looks[slot] += 1
            if on { lit[slot] += 1 }
            usleep(200)
        }
        let levels: [Double?] = zip(lit, looks).map { $1 >= Self.fewestLooks ? Double($0) / Double($1) : nil }
        return Self.read(levels, looks: looks, bin: bin, longestGap: longestGap)
    }

    /// The reading of `levels`, with the runs the eye saw lit.
    private static func read(_ levels: [Double?], looks: [Int], bin: TimeInterval, longestGap: TimeInterval) -> CellPattern {
        let window = Duration.nanoseconds(Int64(bin * 1e9))
        let reader = PatternReader(window: window, timings: GameTimings())
        // Dark below half a dim mark's share of looks (one frame of the installed cycle); a
        // pattern where it dims to the geometric middle of a refused press's lit phase and the
        // light between (on O's mark, O's own: an eye without colour sees only the share lit).
        let cycle = DimCycle.standard
        let refused = FrameRenderer.light(of: .refused(.o))
        let modulation = refused.map { (cycle.duty(of: $0.brightness) / cycle.duty(of: $0.betweenBrightness)).squareRoot() } ?? .infinity
        let reading: String
        switch reader.read(levels, darkBelow: cycle.duty(of: .dim) / 2, modulation: modulation) {
        case .success(let light): reading = light.pattern?.rawValue ?? "dark"
        case .failure(let problem): reading = problem.description
        }
        let seen = reader.integrated(levels)
        let peak = seen.compactMap { $0 }.max() ?? 0
        var runs: [[Double]] = [], start: Int?
        for (index, level) in (seen + [nil]).enumerated() {
            let isLit = level.map { peak > 0 && $0 * 2 >= peak } ?? false
            if isLit && start == nil { start = index }
            if !isLit, let first = start {
                runs.append([Double(first) * bin * 1000, Double(index - first) * bin * 1000])
                start = nil
            }
        }
        var unseen = 0, longestUnseen = 0
        for level in levels {
            unseen = level == nil ? unseen + 1 : 0
            longestUnseen = max(longestUnseen, unseen)
        }
        return CellPattern(
            binMs: bin * 1000, levels: levels, looks: looks, longestGapMs: longestGap * 1000,
            longestUnseenMs: Double(longestUnseen) * bin * 1000, reading: reading, litRuns: runs)
    }
}
