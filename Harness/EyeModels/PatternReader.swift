import Basics
import BoardSimulation
import ViewModel

/// One LED as an eye that sees no colour reads it over a stretch of time: dark, or lit in one of
/// the table's patterns (``Light/Pattern``: steady, the slow blink, the fast flicker) at a
/// brightness, in the eye's own units of light.
public struct SeenLight: Sendable, Hashable, CustomStringConvertible {
    /// `nil`: dark.
    public var pattern: Light.Pattern?
    /// How bright it is while lit (steady: the median of the eye's sums; a pattern: the
    /// brightest); 0 when dark.
    public var level: Double
    /// How bright it is between, in a pattern's off phase (the dimmest of the eye's sums; near 0
    /// when dark between); for a steady light, ``level``.
    public var between: Double

    public init(pattern: Light.Pattern?, level: Double, between: Double? = nil) {
        self.pattern = pattern
        self.level = level
        self.between = between ?? level
    }

    public static let dark = SeenLight(pattern: nil, level: 0)

    public var description: String {
        guard let pattern else { return "dark" }
        func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        return "\(pattern.rawValue) at \(rounded(level))" + (pattern == .steady ? "" : ", \(rounded(between)) between")
    }
}

/// Why a stretch of light could not be read: too short to tell two patterns apart, or unlike any.
public struct Misreading: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Tells an LED's patterns in time apart from how bright it was in each of a run of equal
/// windows: the fast flicker of a refused press, the slow blink of a game's end, steady, dark.
/// Pure.
///
/// First the eye's persistence: each level is averaged over `integration` (a whole number of
/// windows), as an eye sums light over some tens of milliseconds; so a dim LED whose short
/// pulses come a little late once (the scan starting or stopping) still looks steady, as it
/// does to a person. A window with nothing to go by (`nil`: nothing seen in it) is
/// left out of the sum; a whole integration of them is unknown.
///
/// A pattern alternates between a lit phase and a phase between, dark or (a refused press on a
/// mark) the mark's dimmer light: it is seen when the dimmest sum is dark, or at least
/// `modulation` times dimmer than the brightest. A level then counts as lit when nearer the
/// brightest than the dimmest (half the brightest when the dimmest is dark; their geometric
/// mean when not, as brightness is seen by ratio), and runs of lit and of unlit levels are
/// measured. A run is *whole* when levels of the other kind bound it on both sides; one that
/// meets the stretch's edge, or an unknown level, only says that the phase lasted at least
/// that long.
/// Seen through `integration`, a blink's whole runs last at least `blinkHalfPeriod -
/// integration`, and a flicker's runs at most `flickerHalfPeriod + integration` (or longer where
/// a second refused press started the flicker again), well below the first (checked at `init`).
/// So a pattern seen, a whole run shorter than a blink's is the flicker; failing that, a run
/// longer than a flicker's is the blink; failing that, the stretch was too short to tell.
public struct PatternReader: Sendable, Hashable {
    /// The windows' length.
    public let window: Duration
    /// How long the eye sums light over: a whole number of windows.
    public let integration: Duration
    public let flickerHalfPeriod: Duration
    public let blinkHalfPeriod: Duration

    /// The number of windows an eye sums.
    private let summed: Int

    /// - Parameter integration: how long the eye sums light over (rounded to whole windows).
    public init(window: Duration, integration: Duration = FramePerception.eyeWindow, flickerHalfPeriod: Duration, blinkHalfPeriod: Duration) {
        summed = max(1, Int((integration.nanoseconds + window.nanoseconds / 2) / max(window.nanoseconds, 1)))
        self.window = window
        self.integration = window * summed
        self.flickerHalfPeriod = flickerHalfPeriod
        self.blinkHalfPeriod = blinkHalfPeriod
        require(flickerHalfPeriod + self.integration * 2 < blinkHalfPeriod - self.integration,
                "PatternReader: an eye summing \(self.integration) cannot tell a \(flickerHalfPeriod) flicker from a \(blinkHalfPeriod) blink")
    }

    /// The reader for `timings`' flicker and blink, with windows of `window`.
    public init(window: Duration, timings: GameTimings) {
        self.init(window: window, flickerHalfPeriod: timings.flickerHalfPeriod, blinkHalfPeriod: timings.blinkHalfPeriod)
    }

    /// How long a stretch must be for a pattern to be read in it, from a phase's start: the eye's
    /// sum, and then steady needs a window; the blink, its first lit phase and a window of the
    /// dark one; the flicker, a whole phase bounded by two others, and a window more.
    public func shortestReadable(_ pattern: Light.Pattern?) -> Duration {
        switch pattern {
        case nil, .steady: integration + window
        case .blink: integration + blinkHalfPeriod + window * 2
        case .flicker: integration * 2 + flickerHalfPeriod * 2 + window * 2
        }
    }

    /// The light in `levels` (one per window; `nil` for a window with nothing to go by), dark
    /// when the eye's sum never reaches `darkBelow`; a pattern when its sum falls below
    /// `darkBelow` or `modulation` times below its brightest (by default, only the first).
    public func read(_ levels: [Double?], darkBelow: Double, modulation: Double = .infinity) -> Result<SeenLight, Misreading> {
        let seen = integrated(levels)
        let known = seen.compactMap { $0 }
        guard let peak = known.max(), let trough = known.min() else { return .failure(Misreading("nothing seen")) }
        guard peak >= darkBelow else { return .success(.dark) }
        guard trough < darkBelow || peak >= trough * modulation, trough > 0 || peak > 0 else {
            return .success(SeenLight(pattern: .steady, level: median(known)))
        }
        let threshold = trough < darkBelow ? peak / 2 : (peak * trough).squareRoot()
        let lit = seen.map { $0.map { $0 >= threshold } }
        // The brightest and the dimmest sums: those that fall wholly inside a phase (the eye's
        // sum is shorter than any), where the others mix the two.
        let level = peak, between = trough
        let runs = Self.runs(lit)
        let longestFlicker = (flickerHalfPeriod + integration).nanoseconds, shortestBlink = (blinkHalfPeriod - integration).nanoseconds
        if runs.contains(where: { $0.isWhole && $0.windows * window.nanoseconds < shortestBlink }) {
            return .success(SeenLight(pattern: .flicker, level: level, between: between))
        }
        if runs.contains(where: { $0.windows * window.nanoseconds > longestFlicker }) {
            return .success(SeenLight(pattern: .blink, level: level, between: between))
        }
        return .failure(Misreading("runs of \(Self.describe(runs, window)): too short to tell the flicker from the blink"))
    }

    /// `levels` summed as the eye sums them: each the mean of the windows of one integration
    /// from it that are known; `nil` where none is (a window without a level is not dark, only
    /// unseen, so the light around it stands for it, as long as some of it was seen).
    public func integrated(_ levels: [Double?]) -> [Double?] {
        guard levels.count >= summed else { return [] }
        var sums: [Double?] = []
        sums.reserveCapacity(levels.count - summed + 1)
        var sum = 0.0, known = 0
        for (index, level) in levels.enumerated() {
            if let level {
                sum += level
                known += 1
            }
            if index >= summed, let gone = levels[index - summed] {
                sum -= gone
                known -= 1
            }
            if index >= summed - 1 { sums.append(known > 0 ? max(sum, 0) / Double(known) : nil) }
        }
        return sums
    }

    /// A run of windows alike, lit or dark.
    struct Run: Equatable {
        var lit: Bool
        var windows: Int64
        /// Bounded on both sides by windows of the other kind.
        var isWhole: Bool
    }

    /// The runs of lit and dark windows; a `nil` window ends a run and begins none.
    static func runs(_ lit: [Bool?]) -> [Run] {
        var runs: [Run] = [], current: Run?, previous: Bool?
        for value in lit + [nil] {
            if let run = current, value != run.lit {
                runs.append(Run(lit: run.lit, windows: run.windows, isWhole: run.isWhole && value != nil))
                current = nil
            }
            guard let value else {
                previous = nil
                continue
            }
            if current == nil { current = Run(lit: value, windows: 0, isWhole: previous == !value) }
            current?.windows += 1
            previous = value
        }
        return runs
    }

    private static func describe(_ runs: [Run], _ window: Duration) -> String {
        runs.map { "\($0.lit ? "lit" : "unlit") \($0.windows * window.nanoseconds / 1_000_000) ms\($0.isWhole ? "" : "+")" }
            .joined(separator: ", ")
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
