#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the monotonic clock (Linux `CLOCK_MONOTONIC`), in nanoseconds.
///
/// The kernel stamps GPIO edge events on this clock, so button timestamps and scheduler
/// deadlines can be compared directly. In tests it is the ``TestScheduler``'s virtual time.
public struct MonotonicInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    /// The monotonic clock's reading now: the one place the program reads `CLOCK_MONOTONIC`.
    public static func now() -> MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: Self, rhs: Duration) -> Self {
        Self(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    public static func - (lhs: Self, rhs: Duration) -> Self {
        Self(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    public static func += (lhs: inout Self, rhs: Duration) { lhs = lhs + rhs }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Self, rhs: Self) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    public var description: String {
        let ms = Double(nanoseconds) / 1_000_000
        return "\(ms) ms"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (rounded toward zero).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
