/// Which outcomes of a task that is tried again and again (a save on every change of the game)
/// deserve a line in the log: the first failure of each kind, and the first success after
/// failures. A card that stays full all day costs two lines, not one per move.
///
/// A kind is the system's error number (`ENOSPC`, `EROFS`, `EIO`, …), or `nil` for a failure
/// that has none. After a success every kind is new again: a card that fills up, is emptied and
/// fills up again is reported each time.
///
/// A value type with no I/O: the caller keeps it where its outcomes arrive (one thread, or
/// behind a lock) and writes the lines.
public struct RepeatedFailures: Sendable, Equatable {
    private var kindsSeen: Set<Int32?> = []
    private var failures = 0

    public init() {}

    /// Counts a failure of `kind`; true when it is the first of its kind since the last success.
    public mutating func failed(kind: Int32?) -> Bool {
        failures += 1
        return kindsSeen.insert(kind).inserted
    }

    /// Counts a success; the number of failures since the previous success, when there were
    /// any (say that it works again), else `nil`.
    public mutating func succeeded() -> Int? {
        defer {
            failures = 0
            kindsSeen = []
        }
        return failures > 0 ? failures : nil
    }

    /// Failures since the last success.
    public var failuresSinceSuccess: Int { failures }
}
