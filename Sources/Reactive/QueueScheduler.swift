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
/// Actions run on the queue's thread, one at a time. Timer deadlines are measured on
/// `CLOCK_MONOTONIC`, the clock the kernel stamps GPIO events with.
public final class QueueScheduler: Scheduler {
    private let queue: DispatchQueue
    private let onQueue = QueueMark()

    /// A scheduler on a new serial queue.
    public init(label: String = "tictactoe.scheduler", qos: DispatchQoS = .userInteractive) {
        queue = DispatchQueue(label: label, qos: qos)
        queue.setSpecific(key: onQueue.key, value: true)
    }

    public func runAndWait(_ work: @escaping @Sendable () -> Void) {
        if DispatchQueue.getSpecific(key: onQueue.key) == true { work() } else { queue.sync(execute: work) }
    }

    public var now: MonotonicInstant { .now() }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let token = ActionDisposable {}
        queue.async {
            guard !token.isDisposed else { return }
            action()
        }
        return token
    }

    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let timer = Timer(DispatchSource.makeTimerSource(queue: queue))
        timer.source.schedule(deadline: dispatchTime(for: deadline), leeway: .microseconds(50))
        timer.source.setEventHandler {
            timer.source.cancel()
            action()
        }
        timer.source.resume()
        return ActionDisposable { timer.source.cancel() }
    }

    @discardableResult
    public func schedule(
        at deadline: MonotonicInstant, repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let timer = Timer(DispatchSource.makeTimerSource(flags: .strict, queue: queue))
        timer.source.schedule(
            deadline: dispatchTime(for: deadline),
            repeating: .nanoseconds(Int(interval.nanoseconds)),
            leeway: .microseconds(20))
        timer.source.setEventHandler(handler: action)
        timer.source.resume()
        return ActionDisposable { timer.source.cancel() }
    }

    // Dispatch keeps its own uptime clock; convert through the distance from now rather than
    // assuming the two clocks share an epoch.
    private func dispatchTime(for deadline: MonotonicInstant) -> DispatchTime {
        let delay = max(0, (deadline - now).nanoseconds)
        return .now() + .nanoseconds(Int(delay))
    }

    // Dispatch sources are thread-safe; the wrapper only tells the compiler so.
    private final class Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
        init(_ source: any DispatchSourceTimer) { self.source = source }
    }
}

/// The key that marks a scheduler's own queue. Immutable and compared by identity; Swift 6.0's
/// Dispatch does not mark it Sendable (6.3's does).
private final class QueueMark: @unchecked Sendable {
    let key = DispatchSpecificKey<Bool>()
}
