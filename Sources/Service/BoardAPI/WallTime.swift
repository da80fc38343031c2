#if canImport(Glibc)
import Glibc
#endif

/// A moment on the wall clock, as the API and the history write it: UTC, ISO 8601, to the
/// second ("2026-11-23T22:41:05Z").
public struct WallTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01 UTC.
    public var seconds: Int

    public init(seconds: Int) { self.seconds = seconds }

    public static func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(seconds: Int(spec.tv_sec))
    }

    public var description: String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.seconds < rhs.seconds }
}
