import Basics
import GPIO

/// Debounces one line on its edge timestamps: a leading-edge lockout with a settle check.
///
/// The first edge that changes the stable level is accepted at once (no added latency), then
/// every edge stamped within `window` after it is only recorded, on press and on release alike,
/// so that release bounce cannot fire a second press. Once the window is over, ``settle(at:)``
/// accepts the level the line was at when the window ended, if it differs (a tap shorter than
/// the window, or a bounce that ended on the other level).
///
/// The level at the window's end is worked out from the recorded edges' timestamps, not from
/// the order they arrived in: a reader thread that hands over the tail of a bounce burst late
/// cannot turn it into a press. Edges stamped alike (a clock coarser than the bounce) are taken
/// in the order they arrived, which for one line is the kernel's order. The caller calls ``settle(at:)`` a little after
/// ``settleDeadline``, allowing for that delivery latency. Pure: the caller schedules.
public struct Debouncer: Sendable, Hashable {
    public var window: Duration { .nanoseconds(windowNanoseconds) }
    /// The window in whole nanoseconds: on the path of every edge, where `Duration`'s 128-bit
    /// arithmetic would cost more than the rest of the check.
    private let windowNanoseconds: Int64
    /// The debounced level.
    public private(set) var stableLevel: LineLevel
    private var lockedUntil: MonotonicInstant?
    private var windowEdges: [Edge] = []

    private struct Edge: Sendable, Hashable {
        var time: MonotonicInstant
        var level: LineLevel
    }

    public init(window: Duration, initialLevel: LineLevel) {
        windowNanoseconds = window.nanoseconds
        self.stableLevel = initialLevel
    }

    /// When the current lockout ends, or `nil` when none is running.
    public var settleDeadline: MonotonicInstant? { lockedUntil }

    /// Whether edges were recorded inside the current window: only then can ``settle(at:)``
    /// change the level, so only then does it need calling.
    public var hasEdgesToSettle: Bool { !windowEdges.isEmpty }

    /// An edge to `level` stamped `time`. Returns the new stable level when it changes now.
    public mutating func edge(to level: LineLevel, at time: MonotonicInstant) -> LineLevel? {
        if let until = lockedUntil {
            guard time >= until else {
                windowEdges.append(Edge(time: time, level: level))
                return nil
            }
            // The line moved after the window: that is what counts now.
            lockedUntil = nil
            windowEdges.removeAll(keepingCapacity: true)
        }
        return accept(level, at: time)
    }

    /// Closes the window that ended at ``settleDeadline`` (call at or after it). Returns the
    /// new stable level if the line had settled on the other level by the window's end.
    public mutating func settle(at time: MonotonicInstant) -> LineLevel? {
        guard let until = lockedUntil, time >= until else { return nil }
        // The latest stamp wins; among equal stamps (a coarse clock stamps a whole burst alike)
        // the last to arrive, since the kernel hands over one line's events in order.
        let settled = windowEdges.enumerated()
            .max { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }?.element.level ?? stableLevel
        lockedUntil = nil
        windowEdges.removeAll(keepingCapacity: true)
        return accept(settled, at: until)
    }

    private mutating func accept(_ level: LineLevel, at time: MonotonicInstant) -> LineLevel? {
        guard level != stableLevel else { return nil }
        stableLevel = level
        lockedUntil = MonotonicInstant(nanoseconds: time.nanoseconds + windowNanoseconds)
        return level
    }
}
