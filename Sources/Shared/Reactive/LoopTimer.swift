import Basics

/// A timer on a scheduler, made once and then set, moved and cancelled as often as needed
/// without allocating: a button's settle check, a refused press's flash, the end-of-game blink.
/// (``Scheduler/schedule(at:_:)`` makes an action and a disposable at every call, a cost the
/// press path pays on every press.)
///
/// ## Contract
/// - Confined to its scheduler: create, set and cancel it there, as its owner's state is.
/// - ``set(at:)``, ``set(after:)`` and ``set(every:)`` replace any setting still pending: it
///   fires once per setting (a repeating one, every interval until cancelled or set again).
/// - `fire` runs on the scheduler. A one-shot timer is no longer ``isSet`` when it runs, so the
///   action may set it again; a repeating one stays set.
/// - ``cancel()`` drops what is pending; the timer may be set again later.
/// - Memory: the timer holds `fire` until ``invalidate()``, which cancels it for good (a run the
///   loop has already begun still ends) and lets `fire` go. `fire` holds its owner weakly, the
///   owner invalidating the timer in its `deinit`; or strongly, where something that outlives
///   the owner's use invalidates it (the LED scan's, by the board, keeping the hottest path off
///   the weak reference's side table). Never `unowned`: an owner released on another thread
///   while its timer runs on the loop would be read destroyed.
public final class LoopTimer: @unchecked Sendable {
    private let scheduler: any Scheduler
    /// `nil` once invalidated: the action (and `fire` in it) let go.
    private var action: ScheduledAction?
    /// Whether a setting is pending (a repeating one stays set until cancelled).
    public var isSet: Bool { action?.isSet ?? false }

    public init(on scheduler: any Scheduler, _ fire: @escaping @Sendable () -> Void) {
        self.scheduler = scheduler
        // `fire` goes into the action as given, never through an optional closure: one taken out
        // of an optional is called through two reabstraction thunks, on every step of the scan.
        action = ScheduledAction(fire)
    }

    /// Fires once at `deadline`.
    public func set(at deadline: MonotonicInstant) { set(at: deadline, repeatingEvery: nil) }

    /// Fires once, `delay` from now.
    public func set(after delay: Duration) { set(at: scheduler.now + delay, repeatingEvery: nil) }

    /// Fires every `interval`, the first time one interval from now.
    public func set(every interval: Duration) { set(at: scheduler.now + interval, repeatingEvery: interval) }

    /// Fires at `deadline`, then every `interval` after it.
    public func set(at deadline: MonotonicInstant, repeatingEvery interval: Duration) {
        set(at: deadline, repeatingEvery: Optional(interval))
    }

    /// Drops the pending setting, if any.
    public func cancel() {
        guard let action, action.isSet else { return }
        scheduler.cancel(prepared: action)
    }

    /// Cancels the timer for good, wherever its action is queued: for its owner's `deinit`.
    public func invalidate() {
        // Disposed, not cancelled: a `deinit` may run on the scheduler's thread while it holds its
        // queue's lock (releasing the last action that held the owner), and cancelling takes that
        // lock. The queue drops a disposed action when it reaches it.
        action?.dispose()
        action = nil
    }

    private func set(at deadline: MonotonicInstant, repeatingEvery interval: Duration?) {
        guard let action else { return }
        scheduler.schedule(prepared: action, at: deadline, repeatingEvery: interval)
    }
}

/// The timers of one owner (a session, a button, the LED scan): each made at its first use,
/// cancelled or invalidated together.
///
/// ## Contract
/// - Confined to its scheduler, as its timers are.
/// - ``invalidateAll()`` is for the owner's end (its `deinit`, or whatever outlives its use):
///   every timer made, and any made after, never fires again.
public final class LoopTimers: @unchecked Sendable {
    private let scheduler: any Scheduler
    private var made: [LoopTimer] = []
    private var invalidated = false

    public init(on scheduler: any Scheduler) {
        self.scheduler = scheduler
    }

    /// A timer of this owner's that runs `fire` (``LoopTimer``'s rules on holding the owner).
    public func make(_ fire: @escaping @Sendable () -> Void) -> LoopTimer {
        let timer = LoopTimer(on: scheduler, fire)
        if invalidated { timer.invalidate() } else { made.append(timer) }
        return timer
    }

    /// Drops what every timer has pending.
    public func cancelAll() {
        for timer in made { timer.cancel() }
    }

    /// Cancels every timer for good and lets their actions go.
    public func invalidateAll() {
        invalidated = true
        for timer in made { timer.invalidate() }
        made = []
    }
}
