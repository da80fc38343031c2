/// A scheduler in virtual time: nothing runs until the test advances the clock, and then every
/// action due runs, in deadline order (ties in scheduling order), on the calling thread.
///
/// Advancing never sleeps. The lock is released around each action (and on every path out, by
/// `defer`), so actions may schedule further actions, including ones due in the same advance.
public final class TestScheduler: Scheduler {
    private struct Entry {
        var deadline: MonotonicInstant
        var sequence: Int
        var interval: Duration?
        var action: @Sendable () -> Void
        var token: ActionDisposable
    }

    private struct State {
        var now: MonotonicInstant
        var sequence = 0
        var queue: [Entry] = []
    }

    private let state: Protected<State>
    private let advancing = Lock()

    /// A scheduler whose clock starts at `start`.
    public init(start: MonotonicInstant = .zero) {
        state = Protected(State(now: start))
    }

    public var now: MonotonicInstant { state.value.now }

    /// How many actions are waiting (repeating ones count once).
    public var pendingCount: Int {
        state.value.queue.filter { !$0.token.isDisposed }.count
    }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(at: nil, interval: nil, action)
    }

    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(at: deadline, interval: nil, action)
    }

    @discardableResult
    public func schedule(
        at deadline: MonotonicInstant, repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        precondition(interval > .zero, "TestScheduler: a repeating interval must be positive")
        return enqueue(at: deadline, interval: interval, action)
    }

    private func enqueue(
        at deadline: MonotonicInstant?, interval: Duration?, _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let token = ActionDisposable {}
        state.withValue { state in
            let entry = Entry(
                deadline: max(deadline ?? state.now, state.now), sequence: state.sequence,
                interval: interval, action: action, token: token)
            state.sequence += 1
            state.queue.append(entry)
        }
        return token
    }

    /// Runs everything due now, without moving the clock.
    public func advance() { advance(to: now) }

    /// Moves the clock forward by `interval`, running everything due on the way.
    public func advance(by interval: Duration) { advance(to: now + interval) }

    /// Moves the clock to `deadline`, running each action due on the way at its own time.
    public func advance(to deadline: MonotonicInstant) {
        advancing.lock(orFail: "TestScheduler: advance called from inside a scheduled action")
        defer { advancing.unlock() }
        while let entry = nextDue(by: deadline) {
            entry.action()
        }
        state.withValue { state in state.now = max(state.now, deadline) }
    }

    // Pops the earliest live entry due by `deadline`, sets the clock to its time and re-queues
    // it when it repeats. Returns nil when nothing more is due.
    private func nextDue(by deadline: MonotonicInstant) -> Entry? {
        state.withValue { state -> Entry? in
            state.queue.removeAll { $0.token.isDisposed }
            guard let index = state.queue.indices.min(by: { lhs, rhs in
                let l = state.queue[lhs], r = state.queue[rhs]
                return (l.deadline, l.sequence) < (r.deadline, r.sequence)
            }), state.queue[index].deadline <= deadline else { return nil }
            let entry = state.queue.remove(at: index)
            state.now = max(state.now, entry.deadline)
            if let interval = entry.interval {
                var next = entry
                next.deadline = entry.deadline + interval
                next.sequence = state.sequence
                state.sequence += 1
                state.queue.append(next)
            }
            return entry
        }
    }
}
