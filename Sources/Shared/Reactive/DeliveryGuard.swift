/// What keeps one signal's deliveries from overlapping: the only thing in which the two kinds of
/// ``SignalCore`` differ, chosen when the core is made, as ReactiveSwift picks its lock.
///
/// - ``LockedDelivery``: a signal any thread may send into. A lock held for the whole delivery
///   serializes senders and catches a recursive send.
/// - ``LoopDelivery``: a loop-confined signal. Only the loop's actions send, so deliveries
///   cannot overlap and take no lock; a flag only the loop touches catches a recursive send.
///
/// Whatever the guard, the core keeps the deliverer's own copy of its observer list, taken
/// again after observers came or went. The guard says how long that copy may be kept: the loop
/// keeps it between deliveries (it alone touches it, and it can be asked to let go of a
/// disposed observer at any time); a lock's holder cannot be asked, so a locked core lets go of
/// its copy at the end of every delivery.
protocol DeliveryGuard: AnyObject, Sendable {
    /// The scheduler whose actions alone deliver, for a loop-confined core; nil when any thread
    /// may.
    var loop: (any Scheduler)? { get }

    /// Whether the calling thread is delivering one of the signal's events now.
    var isDeliveringHere: Bool { get }

    /// Starts a delivery on the calling thread; traps with `message` when it is already
    /// delivering (a recursive send), or, for a loop-confined core in debug builds, when it is
    /// not the loop.
    func enter(orFail message: @autoclosure () -> String)

    /// Ends the delivery the calling thread started, first calling `releaseCopy` where the
    /// deliverer's copy of the list cannot be kept until the next delivery.
    func leave(releasingCopy releaseCopy: () -> Void)

    /// Starts a delivery for a property's producer unless nothing else can deliver meanwhile
    /// already (the calling thread is delivering, or it is the loop). Returns whether it did; if
    /// so, the caller ends it with ``leave(releasingCopy:)``.
    func enterUnlessExclusive() -> Bool

    /// Whether a completion sent now must be delivered elsewhere: true once `complete` has been
    /// handed to the loop, for a loop-confined core sent into from another thread.
    func handsOff(_ complete: @escaping @Sendable () -> Void) -> Bool

    /// After an observer was removed: runs `releaseRemoved` where the deliverer's copy may be
    /// taken again, so that the observer is let go, unless no copy outlives a delivery.
    func observerRemoved(_ releaseRemoved: @escaping @Sendable () -> Void)

    /// Whether a property nobody observes may change without a delivery: only where no
    /// producer can be starting meanwhile (on the loop, where producers start).
    func changesUnobservedFreely() -> Bool
}

/// The guard of a signal any thread may send into: a lock held for the whole delivery.
final class LockedDelivery: DeliveryGuard {
    private let lock = Lock()

    var loop: (any Scheduler)? { nil }

    var isDeliveringHere: Bool { lock.isHeldByCurrentThread }

    func enter(orFail message: @autoclosure () -> String) { lock.lock(orFail: message()) }

    func leave(releasingCopy releaseCopy: () -> Void) {
        // Let go before the lock: once it is free, a disposal elsewhere could not reach the copy.
        releaseCopy()
        lock.unlock()
    }

    func enterUnlessExclusive() -> Bool {
        if lock.isHeldByCurrentThread { return false }
        lock.lock()
        return true
    }

    func handsOff(_ complete: @escaping @Sendable () -> Void) -> Bool { false }

    /// Nothing to do: the copy does not outlive a delivery, and the one in flight lets go of it
    /// when it ends.
    func observerRemoved(_ releaseRemoved: @escaping @Sendable () -> Void) {}

    /// A producer started on another thread holds the lock while it sends the current value and
    /// adds its observer: a change must wait for it, or the new observer would miss it.
    func changesUnobservedFreely() -> Bool { false }
}

/// The guard of a loop-confined signal: only `scheduler`'s actions deliver, so nothing to lock.
final class LoopDelivery: DeliveryGuard, @unchecked Sendable {
    private let scheduler: any Scheduler
    /// Whether the loop is delivering; only the loop touches it.
    private var delivering = false

    init(_ scheduler: any Scheduler) { self.scheduler = scheduler }

    var loop: (any Scheduler)? { scheduler }

    var isDeliveringHere: Bool { delivering }

    func enter(orFail message: @autoclosure () -> String) {
        checkOnLoop()
        if delivering { fatalError(message()) }
        delivering = true
    }

    func leave(releasingCopy _: () -> Void) { delivering = false }

    func enterUnlessExclusive() -> Bool { false }

    func handsOff(_ complete: @escaping @Sendable () -> Void) -> Bool {
        // An input or a property released on another thread: the loop completes it, in its turn.
        guard !scheduler.isCurrent else { return false }
        scheduler.schedule(complete)
        return true
    }

    /// At once on the loop (at the end of the delivery in flight, if any), and by the loop's next
    /// action when disposed elsewhere.
    func observerRemoved(_ releaseRemoved: @escaping @Sendable () -> Void) {
        if scheduler.isCurrent {
            if !delivering { releaseRemoved() }
        } else {
            scheduler.schedule { [self] in if !delivering { releaseRemoved() } }
        }
    }

    func changesUnobservedFreely() -> Bool {
        checkOnLoop()
        return true
    }

    /// Debug builds trap when the core is sent into from outside its loop; release builds do not
    /// pay for asking.
    @inline(__always)
    private func checkOnLoop() {
        #if DEBUG
        if !scheduler.isCurrent {
            fatalError("Signal: sent from outside its loop. A loop-confined signal or property changes only in its scheduler's actions; schedule the change there, or make the source with observe(on:).")
        }
        #endif
    }
}
