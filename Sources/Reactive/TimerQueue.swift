/// The pending actions of a scheduler, in deadline order with ties in scheduling order: the
/// bookkeeping ``TestScheduler`` and ``ThreadScheduler`` share. Not thread-safe: its owner locks.
struct TimerQueue {
    struct Entry {
        var deadline: MonotonicInstant
        var sequence: Int
        var interval: Duration?
        var action: @Sendable () -> Void
        var token: ActionDisposable
    }

    private var entries: [Entry] = []
    private var sequence = 0

    /// Adds an action; disposing the returned token cancels it.
    mutating func insert(
        at deadline: MonotonicInstant, repeatingEvery interval: Duration?, _ action: @escaping @Sendable () -> Void
    ) -> ActionDisposable {
        let token = ActionDisposable {}
        entries.append(Entry(deadline: deadline, sequence: sequence, interval: interval, action: action, token: token))
        sequence += 1
        return token
    }

    /// The earliest deadline among live actions.
    mutating func nextDeadline() -> MonotonicInstant? {
        entries.removeAll { $0.token.isDisposed }
        return earliestIndex().map { entries[$0].deadline }
    }

    var liveCount: Int { entries.filter { !$0.token.isDisposed }.count }

    /// Removes and returns the earliest live action due by `limit`. A repeating one is queued
    /// again one interval on; with `skippingMissedAfter`, one that has fallen more than an
    /// interval behind that time is moved to an interval after it instead of bursting.
    mutating func popDue(by limit: MonotonicInstant, skippingMissedAfter now: MonotonicInstant? = nil) -> Entry? {
        entries.removeAll { $0.token.isDisposed }
        guard let index = earliestIndex(), entries[index].deadline <= limit else { return nil }
        let entry = entries.remove(at: index)
        if let interval = entry.interval {
            var next = entry
            next.deadline = entry.deadline + interval
            if let now, next.deadline + interval < now { next.deadline = now + interval }
            next.sequence = sequence
            sequence += 1
            entries.append(next)
        }
        return entry
    }

    mutating func removeAll() { entries.removeAll() }

    private func earliestIndex() -> Int? {
        entries.indices.min { (entries[$0].deadline, entries[$0].sequence) < (entries[$1].deadline, entries[$1].sequence) }
    }
}
