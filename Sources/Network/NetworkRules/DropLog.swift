import Basics

/// Which dropped messages deserve a line in the log: the first, then at most one line each
/// ``interval``, counting those it kept quiet about. A flood of wrong messages from the network
/// costs a few lines a minute, never a line each.
///
/// A value type with no I/O, on its owner's thread; times come from the caller.
public struct DropLog: Sendable, Hashable {
    public let interval: Duration
    private var lastLine: MonotonicInstant?
    private var quiet = 0

    public init(interval: Duration = .seconds(10)) {
        self.interval = interval
    }

    /// Counts a message dropped at `now` for `why`: the line to log, or nil to stay quiet.
    public mutating func dropped(_ why: String, at now: MonotonicInstant) -> String? {
        if let lastLine, now - lastLine < interval {
            quiet += 1
            return nil
        }
        defer {
            lastLine = now
            quiet = 0
        }
        let seconds = interval.components.seconds
        return quiet == 0 ? "dropped a message: \(why)" : "dropped a message: \(why) (and \(quiet) more in the last \(seconds)s or so, not logged)"
    }
}
