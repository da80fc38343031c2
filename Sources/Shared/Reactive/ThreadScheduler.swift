import Basics
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX semaphore handed to the scheduler's thread; it outlives the wait that owns it.
private struct SemaphorePointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<sem_t>
    init(_ pointer: UnsafeMutablePointer<sem_t>) { self.pointer = pointer }
}

/// A scheduler with a thread of its own, for the game loop on real hardware.
///
/// Unlike a dispatch queue, whose actions may run on any worker thread, every action runs on
/// one known thread, which can therefore be given real-time priority (``requestRealtimePriority(_:)``)
/// so that the LED scan keeps its rhythm on a busy Pi. Timers sleep on `CLOCK_MONOTONIC`.
///
/// ## Contract
/// Serial, in deadline order, ties in scheduling order (see ``Scheduler``). A repeating action
/// that falls more than one interval behind skips the missed ticks rather than bursting.
public final class ThreadScheduler: Scheduler, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue = TimerQueue()
    private var stopped = false
    /// The thread has left its loop and detached itself: `thread` names no thread any more.
    private var exited = false
    private var thread = pthread_t()
    private let name: String

    /// Starts the scheduler's thread, named `name` (as `top -H` shows it). It runs until ``stop()``.
    public init(named name: String) {
        self.name = name
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let scheduler = Unmanaged<ThreadScheduler>.fromOpaque(context).takeRetainedValue()
            LoopThread.name(scheduler.name)
            scheduler.loop()
            return nil
        }, context)
        // Without its thread every action would wait for ever, silently: stop here instead.
        require(status == 0, "ThreadScheduler: no thread for \(name): \(String(cString: strerror(status)))")
    }

    /// The last reference goes once the thread has left its loop (it holds one until then).
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public var now: MonotonicInstant { .now() }

    /// Asks for `SCHED_FIFO` at `priority` for the scheduler's thread. Returns `nil` on success,
    /// or the reason it was refused (no `CAP_SYS_NICE`, no `LimitRTPRIO`, …).
    public func requestRealtimePriority(_ priority: Int32) -> String? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !exited else { return "the scheduler is stopped" }
        var parameters = sched_param()
        parameters.sched_priority = priority
        let status = pthread_setschedparam(thread, SCHED_FIFO, &parameters)
        return status == 0 ? nil : String(cString: strerror(status))
    }

    /// Stops the thread after the action running now; pending actions are dropped.
    public func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(at: now, interval: nil, action)
    }

    public func schedule(prepared: ScheduledAction) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        queue.insert(prepared, at: now)
        pthread_cond_signal(condition)
    }

    public func schedule(prepared: ScheduledAction, at deadline: MonotonicInstant, repeatingEvery interval: Duration?) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        queue.set(prepared, at: deadline, repeatingEvery: interval)
        pthread_cond_signal(condition)
    }

    public func cancel(prepared: ScheduledAction) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        queue.unset(prepared)
    }

    /// On its thread, or once stopped (nothing else runs).
    public var isCurrent: Bool {
        if pthread_equal(pthread_self(), thread) != 0 { return true }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return stopped
    }

    public func runAndWait(_ work: @escaping @Sendable () -> Void) {
        // On the loop itself, or with the loop gone (nothing else runs): at once.
        if isCurrent {
            work()
            return
        }
        let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(done, 0, 0)
        defer {
            sem_destroy(done)
            done.deallocate()
        }
        let signal = SemaphorePointer(done)
        schedule {
            work()
            sem_post(signal.pointer)
        }
        while sem_wait(done) != 0 && errno == EINTR {}
    }

    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(at: deadline, interval: nil, action)
    }

    @discardableResult
    public func schedule(
        at deadline: MonotonicInstant, repeatingEvery interval: Duration, _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        require(interval > .zero, "ThreadScheduler: a repeating interval must be positive")
        return enqueue(at: deadline, interval: interval, action)
    }

    private func enqueue(at deadline: MonotonicInstant, interval: Duration?, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let token = queue.insert(at: deadline, repeatingEvery: interval, action)
        pthread_cond_signal(condition)
        return token
    }

    private func loop() {
        pthread_mutex_lock(mutex)
        while !stopped {
            guard let deadline = queue.nextDeadline() else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            let current = now
            guard deadline <= current, let due = queue.popDue(by: current, skippingMissedAfter: current) else {
                var until = timespec(
                    tv_sec: Int(deadline.nanoseconds / 1_000_000_000), tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &until)
                continue
            }
            pthread_mutex_unlock(mutex)
            due.run()
            pthread_mutex_lock(mutex)
        }
        // Released after the lock: the last action to go may hold an owner whose `deinit`
        // touches this scheduler.
        var dropped = TimerQueue()
        swap(&dropped, &queue)
        exited = true
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(dropped) {}
        // Nobody joins it (``stop()`` may be called from an action on this very thread): a
        // thread neither joined nor detached keeps its stack and its entry after it ends.
        pthread_detach(pthread_self())
    }
}
