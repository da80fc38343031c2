import Basics
/// Runs actions now or later, one at a time, on a clock of its own.
///
/// ## Contract
///
/// - **Serial.** Actions never overlap, and actions due at the same instant run in the order
///   they were scheduled. Everything the game does (debounce windows, holds, blinks, the LED
///   scan) runs on one scheduler, so game state needs no further locking.
/// - **Time.** ``now`` is monotonic. A deadline in the past runs as soon as possible.
/// - **Cancellation.** Disposing the returned disposable before an action starts prevents it;
///   disposing a repeating action stops further repetitions.
///
/// Two implementations: ``ThreadScheduler``, a thread of its own that can run at real-time
/// priority (every loop of the programs: the game loop, the service's clock, the terminal game,
/// the self-test); and ``TestScheduler``, in virtual time, so that tests never sleep.
public protocol Scheduler: AnyObject, Sendable {
    /// The scheduler's current time.
    var now: MonotonicInstant { get }

    /// Runs `action` as soon as possible, after anything already due.
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `prepared` as soon as possible, after anything already due, like `schedule {}` but
    /// without allocating: for an action that runs again and again, such as a hop's drain. Hand
    /// it in again only once it has started to run (it is queued once per call); disposing it
    /// stops it for good.
    func schedule(prepared: ScheduledAction)

    /// Runs `prepared` at `deadline` (and every `interval` after it, when given) in place of any
    /// run of it still pending: a timer made once and set again and again (``LoopTimer``),
    /// without allocating while the queue has room. Not for an action also handed to
    /// ``schedule(prepared:)``.
    func schedule(prepared: ScheduledAction, at deadline: MonotonicInstant, repeatingEvery interval: Duration?)

    /// Drops the pending run of `prepared` set by ``schedule(prepared:at:repeatingEvery:)``, if
    /// it has one: a timer cancelled, to be set again later.
    func cancel(prepared: ScheduledAction)

    /// Runs `action` at `deadline`.
    @discardableResult
    func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` at `deadline` and then every `interval` after it.
    @discardableResult
    func schedule(
        at deadline: MonotonicInstant, repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable

    /// Runs `work` on the scheduler, serialized with its actions, and returns once it has run
    /// (at once when called from the scheduler's own thread). For setup and teardown from
    /// outside the game loop: starting the scan, a self-test's frames.
    func runAndWait(_ work: @escaping @Sendable () -> Void)

    /// Whether the calling code may act as one of the scheduler's actions now: it runs on the
    /// scheduler's own thread or queue, or nothing else can run there (a stopped thread, a
    /// test clock no other thread is advancing). Loop-confined signals and properties check
    /// it (see ``Signal/pipe(confinedTo:)``).
    var isCurrent: Bool { get }
}

extension Scheduler {
    /// ``runAndWait(_:)``, handing back what `work` returned: a value made on the scheduler
    /// for a caller anywhere (a confined property's first value, a button's state).
    public func runAndWait<Result: Sendable>(_ work: @escaping @Sendable () -> Result) -> Result {
        // Serialized by `runAndWait`, which returns once the work has run.
        let made = Confined<Result?>(nil)
        runAndWait { made.value = work() }
        guard let result = made.value else { fatalError("\(Self.self): runAndWait returned before its work ran") }
        return result
    }

    /// Runs `action` once `delay` has passed.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        schedule(at: now + delay, action)
    }

    /// Runs `action` every `interval`, the first time one interval from now.
    @discardableResult
    public func schedule(every interval: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        schedule(at: now + interval, repeatingEvery: interval, action)
    }
}
