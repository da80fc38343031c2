import GPIO
import Reactive

/// Debounces one line on its edge timestamps: a leading-edge lockout with a settle check.
///
/// The first edge that changes the stable level is accepted at once (no added latency), then
/// every edge for `window` after it is only remembered, on press and on release alike, so that
/// release bounce cannot fire a second press. When the window ends, ``settle(at:)`` accepts the
/// level the line actually settled at if it differs (a tap shorter than the window, or a bounce
/// that ended on the other level). Pure: the caller schedules the settle call.
public struct Debouncer: Sendable, Hashable {
    public let window: Duration
    /// The debounced level.
    public private(set) var stableLevel: LineLevel
    private var rawLevel: LineLevel
    private var lockedUntil: MonotonicInstant?

    public init(window: Duration, initialLevel: LineLevel) {
        self.window = window
        self.stableLevel = initialLevel
        self.rawLevel = initialLevel
    }

    /// When the lockout ends and ``settle(at:)`` is due, or `nil` when none is running.
    public var settleDeadline: MonotonicInstant? { lockedUntil }

    /// An edge to `level` at `time`. Returns the new stable level when it changes now.
    public mutating func edge(to level: LineLevel, at time: MonotonicInstant) -> LineLevel? {
        rawLevel = level
        if let until = lockedUntil {
            guard time >= until else { return nil }
            lockedUntil = nil
        }
        return accept(at: time)
    }

    /// The lockout's end at `time`. Returns the new stable level if the line settled elsewhere.
    public mutating func settle(at time: MonotonicInstant) -> LineLevel? {
        guard let until = lockedUntil, time >= until else { return nil }
        lockedUntil = nil
        return accept(at: time)
    }

    private mutating func accept(at time: MonotonicInstant) -> LineLevel? {
        guard rawLevel != stableLevel else { return nil }
        stableLevel = rawLevel
        lockedUntil = time + window
        return stableLevel
    }
}
