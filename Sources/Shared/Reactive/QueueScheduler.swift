import Basics
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scheduler on a serial dispatch queue, with timers on the monotonic clock: for work that
/// needs no thread of its own (the terminal game, the self-test, the watchdog's pings).
///
/// ## Contract
/// Serial, in deadline order, ties in scheduling order, as ``Scheduler`` promises: every action
/// (`schedule {}` is an action due now) waits in one ``TimerQueue``, and one dispatch timer,
/// armed for the earliest deadline, runs what is due on the queue. A repeating action that
/// falls more than one interval behind skips the missed ticks rather than bursting. Timer
/// deadlines are measured on `CLOCK_MONOTONIC`, the clock the kernel stamps GPIO events with.
public final class QueueScheduler: Scheduler {
    private struct State {
        var actions = TimerQueue()
        /// The deadline the timer is armed for; nil when it is idle.
        var armedFor: MonotonicInstant?
    }

    private let queue: DispatchQueue
    private let onQueue = QueueMark()
    private let timer: Timer
    private let state = Protected(State())

    /// A scheduler on a new serial queue.
    public init(label: String = "tictactoe.scheduler", qos: DispatchQoS = .userInteractive) {
        queue = DispatchQueue(label: label, qos: qos)
        queue.setSpecific(key: onQueue.key, value: true)
        timer = Timer(DispatchSource.makeTimerSource(flags: .strict, queue: queue))
        timer.source.setEventHandler { [weak self] in self?.runDue() }
        timer.source.resume()
    }

    deinit { timer.source.cancel() }

    public func runAndWait(_ work: @escaping @Sendable () -> Void) {
        if isCurrent { work() } else { queue.sync(execute: work) }
    }

    /// On its queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: onQueue.key) == true }

    public var now: MonotonicInstant { .now() }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(at: now, interval: nil, action)
    }

    public func schedule(prepared: ScheduledAction) {
        // Returns the deadline only [6.0.3: optimiser-crash] to keep Swift 6.0.3's optimiser off a Void-returning
        // specialisation it crashes on (see TestScheduler.schedule(prepared:)).
        _ = state.withValue { state -> MonotonicInstant in
            let deadline = now
            state.actions.insert(prepared, at: deadline)
            if state.armedFor.map({ deadline < $0 }) ?? true { arm(&state, for: deadline) }
            return deadline
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
        require(interval > .zero, "QueueScheduler: a repeating interval must be positive")
        return enqueue(at: deadline, interval: interval, action)
    }

    private func enqueue(at deadline: MonotonicInstant, interval: Duration?, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        state.withValue { state in
            let token = state.actions.insert(at: deadline, repeatingEvery: interval, action)
            if state.armedFor.map({ deadline < $0 }) ?? true { arm(&state, for: deadline) }
            return token
        }
    }

    /// Runs every action due now, in order, then arms the timer for the next. On the queue.
    private func runDue() {
        state.withValue { $0.armedFor = nil }
        while true {
            let current = now
            guard let due = state.withValue({ $0.actions.popDue(by: current, skippingMissedAfter: current) }) else { break }
            due.run()
        }
        state.withValue { state in
            if let next = state.actions.nextDeadline(), state.armedFor.map({ next < $0 }) ?? true { arm(&state, for: next) }
        }
    }

    /// Arms the timer for `deadline`, under the state's lock, so that arming from two threads
    /// cannot leave it set for the later of two deadlines.
    private func arm(_ state: inout State, for deadline: MonotonicInstant) {
        state.armedFor = deadline
        // Dispatch keeps its own uptime clock; convert through the distance from now rather
        // than assuming the two clocks share an epoch.
        let delay = max(0, (deadline - now).nanoseconds)
        timer.source.schedule(deadline: .now() + .nanoseconds(Int(delay)), repeating: .never, leeway: .microseconds(50))
    }

    // Dispatch sources are thread-safe; the wrapper only tells the compiler so.
    private final class Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
        init(_ source: any DispatchSourceTimer) { self.source = source }
    }
}

/// The key that marks a scheduler's own queue. Immutable and compared by identity; Swift 6.0's
/// Dispatch does not mark it Sendable (6.3's does) [6.0.3: dispatch-sendable].
private final class QueueMark: @unchecked Sendable {
    let key = DispatchSpecificKey<Bool>()
}
