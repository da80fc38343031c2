import Basics

/// Which of a repeated kind of line deserve the log (a message dropped, a publication refused):
/// the first, then at most one each ``interval``, counting those it kept quiet about. A flood of
/// wrong messages from the network costs a few lines a minute, never a line each.
///
/// A value type with no I/O, on its owner's thread; times come from the caller.
public struct DropLog: Sendable, Hashable {
    public let interval: Duration
    private var lastLine: MonotonicInstant?
    private var quiet = 0

    public init(interval: Duration = .seconds(10)) {
        self.interval = interval
    }

    /// Counts `count` happenings at `now` that `line` tells of: the line to log (with how many
    /// went unsaid since the last), or nil to stay quiet.
    public mutating func note(_ line: String, count: Int = 1, at now: MonotonicInstant) -> String? {
        if let lastLine, now - lastLine < interval {
            quiet += count
            return nil
        }
        defer {
            lastLine = now
            quiet = 0
        }
        let seconds = interval.components.seconds
        return quiet == 0 ? line : "\(line) (and \(quiet) more in the last \(seconds)s or so, not logged)"
    }
}
