import Basics
import Synchronization

/// What a signal shares among its handle, its input and its observers' disposables: the
/// observers, whether it is still alive, and its observation of its sources.
///
/// Its ``DeliveryGuard``, chosen when it is made, keeps deliveries apart: a lock for a signal
/// any thread may send into, confinement to the loop for the loop's own. Everything else is the
/// same for both. The list is shared under `state`, so observers come and go from any thread;
/// the deliverer works from its own copy, taken again only after the list changed, so that a
/// delivery on the loop takes no lock at all.
final class SignalCore<Value: Sendable>: @unchecked Sendable {
    private enum Status { case alive, completed, terminated }

    private struct State {
        var observers: ContiguousArray<ObserverEntry<Value>> = []
        var status = Status.alive
        /// Signal objects (and property owners) that can still be observed through.
        var handles: Int
        var upstream: (any Disposable)?
    }

    private let delivery: any DeliveryGuard
    private let state: Locked<State>
    /// How many observers the list holds, written under the state lock: a value sent while
    /// there are none is dropped without entering a delivery (an unobserved pipe costs a load).
    private let observerCount = Atomic(0)
    /// Set under the state lock whenever the list changes, and when the deliverer let go of its
    /// copy: the next delivery takes the list again.
    private let listChanged = Atomic(true)
    /// The deliverer's copy of the list. Only the delivering thread touches it (or, for a
    /// loop-confined core, the loop between deliveries).
    private var deliveryList: ContiguousArray<ObserverEntry<Value>> = []
    /// A completion sent from inside a delivery, delivered when that delivery ends. Only the
    /// delivering thread touches it.
    private var completionPending = false

    /// A core with `handles` owners to begin with (see ``retainHandle()``), confined to `loop`'s
    /// actions when one is given.
    init(handles: Int = 1, loop: (any Scheduler)? = nil) {
        state = Locked(State(handles: handles))
        if let loop { delivery = LoopDelivery(loop) } else { delivery = LockedDelivery() }
    }

    /// The scheduler whose actions alone send into a loop-confined core; nil for a core any
    /// thread may send into.
    var loop: (any Scheduler)? { delivery.loop }

    /// Whether a change nobody observes may be made without a delivery (see
    /// ``DeliveryGuard/changesUnobservedFreely()``). Asks the guard only when nobody observes.
    var changesUnobservedFreely: Bool {
        observerCount.load(ordering: .relaxed) == 0 && delivery.changesUnobservedFreely()
    }

    /// Another object now hands out observations of this core; balance with ``handleReleased()``.
    func retainHandle() { state.withLock { $0.handles += 1 } }

    /// An owner went away: with none left and no observer, nobody can ever observe it again.
    func handleReleased() {
        let unused = state.withLock { state -> Bool in
            state.handles -= 1
            return state.handles == 0 && state.observers.isEmpty && state.status == .alive
        }
        if unused { terminate() }
    }

    /// Keeps the sources' observation, to dispose when this signal terminates. A signal that
    /// terminated while it was being set up disposes it at once.
    func attach(upstream: (any Disposable)?) {
        guard let upstream else { return }
        let kept = state.withLock { state -> Bool in
            guard state.status == .alive else { return false }
            state.upstream = upstream
            return true
        }
        if !kept { upstream.dispose() }
    }

    func add(_ observer: Observer<Value>) -> any Disposable {
        let entry = ObserverEntry(observer)
        let added = state.withLock { state -> Bool in
            guard state.status == .alive else { return false }
            state.observers.append(entry)
            listDidChange(&state)
            return true
        }
        guard added else {
            observer.sendCompleted()
            return NoDisposable.shared
        }
        return Observation(core: self, entry: entry)
    }

    fileprivate func remove(_ entry: ObserverEntry<Value>) {
        // Deliveries check the flag before each observer. No waiting for a delivery in flight:
        // its observer may be waiting for this very thread.
        entry.isActive.store(false, ordering: .releasing)
        let unused = state.withLock { state -> Bool in
            if let index = state.observers.firstIndex(where: { $0 === entry }) {
                state.observers.remove(at: index)
                listDidChange(&state)
            }
            return state.observers.isEmpty && state.handles == 0 && state.status == .alive
        }
        if unused { terminate() } else { delivery.observerRemoved { [self] in takeListIfChanged() } }
    }

    /// Under the state lock, after any change to the list.
    private func listDidChange(_ state: inout State) {
        observerCount.store(state.observers.count, ordering: .relaxed)
        listChanged.store(true, ordering: .releasing)
    }

    func send(_ event: Event<Value>) {
        if event.isCompleted {
            complete()
        } else if observerCount.load(ordering: .relaxed) > 0 {
            // Nobody to tell otherwise. An observer arriving at this very moment on another
            // thread may miss this value, as it may miss any value sent while it is being added.
            withDeliveryLock(orFail: Self.recursiveSend) { ((), event) }
        }
    }

    private func complete() {
        if delivery.handsOff({ [self] in complete() }) { return }
        if delivery.isDeliveringHere {
            // A recursive completion: the delivery in flight on this thread ends with it.
            completionPending = true
            return
        }
        withDeliveryLock(orFail: Self.recursiveSend) { ((), .completed) }
    }

    private static var recursiveSend: String {
        "Signal: recursive send. An observer sent a value into the signal it is observing; send from outside the observer or hop with observe(on:)."
    }

    /// Runs `update` and delivers the event it returns, so that what `update` changes and what
    /// observers are told cannot be interleaved with another thread's update: a property's
    /// value and its change signal stay in step. Starting a delivery inside one traps with
    /// `message`.
    func withDeliveryLock<Result>(
        orFail message: @autoclosure () -> String, _ update: () throws -> (Result, Event<Value>?)
    ) rethrows -> Result {
        delivery.enter(orFail: message())
        var completed = false
        defer { leave(completed: completed) }
        let (result, event) = try update()
        if let event { completed = deliver(event) }
        if finishDelivery() { completed = true }
        return result
    }

    /// Runs `body` where no event can be delivered meanwhile (at once when this thread is the
    /// one delivering, or on a loop-confined core's loop, where nothing else delivers): how a
    /// property hands out its current value and then its changes.
    func withoutConcurrentDelivery<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard delivery.enterUnlessExclusive() else { return try body() }
        var completed = false
        defer { leave(completed: completed) }
        let result = try body()
        completed = finishDelivery()
        return result
    }

    /// Ends a delivery; the sources' observation is disposed once the guard is left, as the
    /// sources may be delivering to this signal on this thread.
    private func leave(completed: Bool) {
        delivery.leave { releaseDeliveryList() }
        if completed { disposeUpstream() }
    }

    /// Delivers `event` to the observers; returns whether it completed the signal. Called by
    /// the delivering thread only.
    private func deliver(_ event: Event<Value>) -> Bool {
        guard case .value = event else { return deliverCompletion() }
        takeListIfChanged()
        for entry in deliveryList where entry.isActive.load(ordering: .acquiring) {
            entry.observer.send(event)
        }
        return false
    }

    /// Delivers the completion to the shared list itself, emptied: an observer added during the
    /// delivery it ends is in that one, and not yet in the deliverer's copy.
    private func deliverCompletion() -> Bool {
        guard let observers = state.withLock({ state -> ContiguousArray<ObserverEntry<Value>>? in
            guard state.status == .alive else { return nil }
            state.status = .completed
            defer {
                state.observers = []
                listDidChange(&state)
            }
            return state.observers
        }) else { return false }
        replaceDeliveryList(with: [])
        for entry in observers where entry.isActive.load(ordering: .acquiring) {
            entry.observer.send(.completed)
        }
        return true
    }

    /// Delivers a completion sent from inside the delivery that is ending, and lets go of
    /// observers disposed meanwhile. Returns whether it completed.
    private func finishDelivery() -> Bool {
        var completed = false
        if completionPending {
            completionPending = false
            completed = deliverCompletion()
        }
        takeListIfChanged()
        return completed
    }

    /// Takes the shared list again if it changed since the deliverer last looked.
    private func takeListIfChanged() {
        guard listChanged.load(ordering: .acquiring) else { return }
        listChanged.store(false, ordering: .relaxed)
        replaceDeliveryList(with: state.withLock { $0.observers })
    }

    /// Lets go of the deliverer's copy, for a guard that cannot keep it between deliveries.
    private func releaseDeliveryList() {
        replaceDeliveryList(with: [])
        listChanged.store(true, ordering: .relaxed)
    }

    /// Replaces the deliverer's copy of the list, letting go of the old one only once the
    /// assignment is over: its entries may be the last owners of observers whose release reaches
    /// this signal again (a view model let go at shutdown, whose own signals end and remove their
    /// observers from this one), which must not find the list in the middle of its assignment
    /// (an exclusivity violation, seen once as a crash at a board's stop).
    private func replaceDeliveryList(with list: ContiguousArray<ObserverEntry<Value>>) {
        let old = deliveryList
        deliveryList = list
        withExtendedLifetime(old) {}
    }

    private func terminate() {
        state.withLock { state in
            if state.status == .alive { state.status = .terminated }
            state.observers = []
            listDidChange(&state)
        }
        delivery.observerRemoved { [self] in takeListIfChanged() }
        disposeUpstream()
    }

    private func disposeUpstream() {
        let upstream = state.withLock { state -> (any Disposable)? in
            defer { state.upstream = nil }
            return state.upstream
        }
        upstream?.dispose()
    }
}

/// One observer in a signal's list, with the flag that stops delivery the moment it is disposed.
final class ObserverEntry<Value: Sendable>: Sendable {
    let observer: Observer<Value>
    let isActive = Atomic(true)

    init(_ observer: Observer<Value>) { self.observer = observer }
}

/// Ends one observation. It does not keep the signal alive: whether a signal lives is counted
/// in its core (handles and observers), and the core it holds here, once terminated, holds no
/// observers and no sources. It holds the core strongly because a weak reference would move
/// every core's reference counting onto the runtime's slow side-table path, on every send.
private final class Observation<Value: Sendable>: Disposable, Sendable {
    private let core: SignalCore<Value>
    private let entry: ObserverEntry<Value>

    init(core: SignalCore<Value>, entry: ObserverEntry<Value>) {
        self.core = core
        self.entry = entry
    }

    var isDisposed: Bool { !entry.isActive.load(ordering: .acquiring) }

    func dispose() {
        guard entry.isActive.load(ordering: .acquiring) else { return }
        core.remove(entry)
    }
}
