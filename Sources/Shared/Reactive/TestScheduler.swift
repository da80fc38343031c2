import Basics
import Synchronization
/// A scheduler in virtual time: nothing runs until the test advances the clock, and then every
/// action due runs, in deadline order (ties in scheduling order), on the calling thread.
///
/// Advancing never sleeps. The lock is released around each action (and on every path out, by
/// `defer`), so actions may schedule further actions, including ones due in the same advance.
/// Advance from one thread at a time, and never from inside an action: either traps with a
/// message.
public final class TestScheduler: Scheduler {
    private struct State {
        var now: MonotonicInstant
        var queue = TimerQueue()
        var completed = 0
    }

    private let state: Protected<State>
    /// The thread advancing the clock, or 0: advancing is never re-entered or shared, and a
    /// flag costs less than a lock on every step of a benchmark's scan.
    private let advancing = Atomic<UInt>(0)

    /// A scheduler whose clock starts at `start`.
    public init(start: MonotonicInstant = .zero) {
        state = Protected(State(now: start))
    }

    public var now: MonotonicInstant { state.withValue { $0.now } }

    /// How many actions are waiting (repeating ones count once).
    public var pendingCount: Int { state.withValue { $0.queue.liveCount } }

    /// How many actions have run so far (each run of a repeating one counts).
    public var completedActions: Int { state.withValue { $0.completed } }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(at: nil, interval: nil, action)
    }

    public func schedule(prepared: ScheduledAction) {
        // The closure returns the deadline only [6.0.3: optimiser-crash] because Swift 6.0.3's optimiser crashes on a
        // Void-returning specialisation of `withValue` for this state when a client module
        // inlines it under cross-module optimisation (make deb's release build).
        _ = state.withValue { state -> MonotonicInstant in
            state.queue.insert(prepared, at: state.now)
            return state.now
        }
    }

    public func schedule(prepared: ScheduledAction, at deadline: MonotonicInstant, repeatingEvery interval: Duration?) {
        // Returns the deadline for the reason ``schedule(prepared:)`` gives [6.0.3: optimiser-crash].
        _ = state.withValue { state -> MonotonicInstant in
            // A deadline in the past is now, as for every other action here.
            state.queue.set(prepared, at: max(deadline, state.now), repeatingEvery: interval)
            return deadline
        }
    }

    public func cancel(prepared: ScheduledAction) {
        // As above [6.0.3: optimiser-crash].
        _ = state.withValue { state -> MonotonicInstant in
            state.queue.unset(prepared)
            return state.now
        }
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
        require(interval > .zero, "TestScheduler: a repeating interval must be positive")
        return enqueue(at: deadline, interval: interval, action)
    }

    private func enqueue(
        at deadline: MonotonicInstant?, interval: Duration?, _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        state.withValue { state in
            state.queue.insert(at: max(deadline ?? state.now, state.now), repeatingEvery: interval, action)
        }
    }

    /// Runs `work` at once: in virtual time the thread that advances the clock is the loop.
    public func runAndWait(_ work: @escaping @Sendable () -> Void) { work() }

    /// True unless another thread is advancing the clock: in virtual time, the thread that
    /// advances is the loop, and between advances any thread may stand in for it.
    public var isCurrent: Bool {
        let owner = advancing.load(ordering: .relaxed)
        return owner == 0 || owner == Lock.currentThread
    }

    /// Runs everything due now, without moving the clock.
    public func advance() { advance(to: now) }

    /// Moves the clock forward by `interval`, running everything due on the way.
    public func advance(by interval: Duration) { advance(to: now + interval) }

    /// Moves the clock to `deadline`, running each action due on the way at its own time.
    public func advance(to deadline: MonotonicInstant) {
        let me = Lock.currentThread
        guard advancing.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged else {
            fatalError(advancing.load(ordering: .relaxed) == me
                ? "TestScheduler: advance called from inside a scheduled action"
                : "TestScheduler: advanced from two threads at once; advance a test's clock from one thread")
        }
        defer { advancing.store(0, ordering: .releasing) }
        var ran = false
        while let due = nextDue(by: deadline, countingOneRun: ran) {
            due.run()
            ran = true
        }
    }

    // Counts the action that just ran (one lock per action, not two), then pops the earliest
    // live entry due by `deadline` and sets the clock to its time; with none left, sets the
    // clock to `deadline`.
    private func nextDue(by deadline: MonotonicInstant, countingOneRun ran: Bool) -> TimerQueue.Due? {
        state.withValue { state -> TimerQueue.Due? in
            if ran { state.completed += 1 }
            guard let due = state.queue.popDue(by: deadline) else {
                state.now = max(state.now, deadline)
                return nil
            }
            state.now = max(state.now, due.deadline)
            return due
        }
    }
}
