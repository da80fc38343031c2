import Synchronization

/// A stream of events over time, shared by all its observers, ending with at most one
/// completion: ReactiveSwift's `Signal`.
///
/// ## Contract
///
/// - **Hot and shared.** A signal sends each event once, to every observer it has at that
///   moment; an observer that arrives late misses earlier events. An operator (`map`, `filter`,
///   `merge`, …) makes a new signal that observes its source once, when it is made, and shares
///   that observation among all of its own observers. (For "the current value, then every
///   change" to each new observer, use a property's ``SignalProducer``.)
/// - **Threading.** Events are delivered synchronously on the sender's thread, before `send`
///   returns. Use ``observe(on:)`` to hop to a scheduler.
/// - **Ordering.** One event at a time: sends from several threads are serialized by the
///   signal's delivery lock, and every observer sees the same order. Sending a value into a
///   signal from one of its own observers is a programming error and traps with a message. A
///   recursive *completion* is allowed (an observer may release the last owner of what it
///   observes, as when a bound property is released from its own observer): it is delivered
///   once the event in flight has reached every observer.
/// - **Termination.** After `.completed`, nothing more is delivered; observing a completed signal
///   delivers `.completed` at once. A pipe completes when its input sends completion or is
///   deallocated; an operator's signal completes when its source does.
/// - **Disposal.** Once the disposable returned by `observe` is disposed, no further event starts
///   to reach the observer. Disposal never waits: an event already being delivered to the
///   observer on another thread may finish while `dispose()` returns (as in ReactiveSwift), so
///   an observer that waits on the disposing thread cannot deadlock it. On the delivering
///   thread itself (an observer disposing another), the disposed observer gets nothing more.
/// - **Memory.** A signal lives while it is referenced or observed, and an operator's signal no
///   longer than its source. Once it is neither referenced nor observed, it stops observing its
///   sources, so a chain of operators nobody listens to costs nothing. Observers never keep a
///   pipe's input alive, and a disposed observer is released at once.
public final class Signal<Value: Sendable>: Sendable {
    let core: SignalCore<Value>

    /// A signal fed by `generator`, which runs once, now: it is handed the observer that sends
    /// into the new signal, and returns its observation of the sources, disposed when the new
    /// signal terminates. Operators are written with this initialiser.
    public convenience init(_ generator: (Observer<Value>) -> (any Disposable)?) {
        self.init(confinedTo: nil, generator)
    }

    /// As ``init(_:)``, confined to `loop` when one is given: for an operator on a confined
    /// source (its events arrive in the source's deliveries, so on the loop) or a hop onto the
    /// loop.
    init(confinedTo loop: (any Scheduler)?, _ generator: (Observer<Value>) -> (any Disposable)?) {
        let core = SignalCore<Value>(loop: loop)
        self.core = core
        core.attach(upstream: generator(Observer { event in core.send(event) }))
    }

    /// The scheduler whose actions alone send into this signal, for a loop-confined one (see
    /// ``pipe(confinedTo:)``); nil when any thread may.
    public var loop: (any Scheduler)? { core.loop }

    /// Another handle on an existing core, such as a property's changes.
    init(sharing core: SignalCore<Value>) {
        core.retainHandle()
        self.core = core
    }

    private init(core: SignalCore<Value>) { self.core = core }

    deinit { core.handleReleased() }

    /// Starts delivering events to `observer` until the returned disposable is disposed.
    @discardableResult
    public func observe(_ observer: Observer<Value>) -> any Disposable {
        core.add(observer)
    }

    /// Observes values only.
    @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        observe(Observer(value: action))
    }

    /// Observes completion only.
    @discardableResult
    public func observeCompleted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        observe(Observer { event in
            if case .completed = event { action() }
        })
    }

    /// A signal and the input that sends into it, from any thread.
    public static func pipe() -> (output: Signal<Value>, input: Input) {
        let core = SignalCore<Value>()
        return (Signal(core: core), Input(core))
    }

    /// A loop-confined signal and its input: for the game loop's own signals, sent into only
    /// by `loop`'s actions.
    ///
    /// It keeps the contract above, with sending confined: events are delivered without a lock
    /// (only the loop sends, so they cannot overlap), and the loop keeps its own copy of the
    /// observer list, taken again only after observers came or went. Observers may still be
    /// added and disposed from any thread; one disposed on another thread while an event is on
    /// its way gets nothing more once the loop reads its flag, and is released by the loop's
    /// next action. A completion sent from another thread (an input released there) is
    /// delivered by the loop, in turn. A value sent from another thread is a programming error:
    /// debug builds trap with a message; release builds do not check.
    /// Operators on a confined signal (`map`, `filter`, …) are confined to the same loop, and
    /// ``observe(on:)`` makes a signal confined to the scheduler it hops to.
    public static func pipe(confinedTo loop: any Scheduler) -> (output: Signal<Value>, input: Input) {
        let core = SignalCore<Value>(loop: loop)
        return (Signal(core: core), Input(core))
    }

    /// A signal that never sends anything and never completes.
    public static var never: Signal<Value> { Signal { _ in nil } }

    /// A signal that has already completed.
    public static var empty: Signal<Value> {
        Signal { observer in
            observer.sendCompleted()
            return nil
        }
    }

    /// The sending end of a ``pipe()``. Deallocating it completes the signal.
    public final class Input: Sendable {
        private let core: SignalCore<Value>

        fileprivate init(_ core: SignalCore<Value>) { self.core = core }

        deinit { core.send(.completed) }

        public func send(_ value: Value) { core.send(.value(value)) }
        public func sendCompleted() { core.send(.completed) }
        public func send(_ event: Event<Value>) { core.send(event) }
    }
}

extension Signal.Input where Value == Void {
    public func send() { send(()) }
}

/// What a signal shares among its handle, its input and its observers' disposables: the
/// observers, whether it is still alive, and its observation of its sources.
///
/// Two kinds, chosen when the core is made:
/// - **Cross-thread** (`loop == nil`): delivery takes two locks: `delivery`, held for a whole
///   event so that events never overlap and a recursive send is caught, and `state`, held only
///   to read or change the list.
/// - **Loop-confined** (`loop != nil`): only the loop's actions send, so events cannot overlap
///   and delivery takes no lock. The loop keeps its own copy of the observer list and copies
///   the shared one again only after it changed (observers come and go from any thread, under
///   `state`). Flags that only the loop touches catch a recursive send.
final class SignalCore<Value: Sendable>: @unchecked Sendable {
    private enum Status { case alive, completed, terminated }

    private struct State {
        var observers: ContiguousArray<ObserverEntry<Value>> = []
        var status = Status.alive
        /// Signal objects (and property owners) that can still be observed through.
        var handles: Int
        var upstream: (any Disposable)?
    }

    /// The scheduler whose actions alone send into a loop-confined core; nil for a core any
    /// thread may send into.
    let loop: (any Scheduler)?
    /// Whether `loop` is set: tested on every send without copying (and retaining) the
    /// scheduler.
    private let isConfined: Bool
    private let delivery = Lock()
    private let state: Mutex<State>
    /// How many observers the list holds, written under the state lock: a value sent while
    /// there are none is dropped without taking either lock (an unobserved pipe costs a load).
    private let observerCount = Atomic(0)
    /// A completion sent from inside a delivery, delivered when that delivery ends. Only the
    /// delivering thread touches it (the holder of the delivery lock, or the loop).
    private var completionPending = false

    // A loop-confined core's own: touched only by the loop's actions, which never overlap.
    /// Set under the state lock whenever the list changes; the loop then copies it.
    private let listChanged = Atomic(false)
    private var loopObservers: ContiguousArray<ObserverEntry<Value>> = []
    private var loopDelivering = false

    /// A core with `handles` owners to begin with (see ``retainHandle()``), confined to `loop`'s
    /// actions when one is given.
    init(handles: Int = 1, loop: (any Scheduler)? = nil) {
        state = Mutex(State(handles: handles))
        self.loop = loop
        isConfined = loop != nil
    }

    /// A loop-confined core with no observer: a change made on the loop has nobody to tell.
    var isConfinedAndUnobserved: Bool { isConfined && observerCount.load(ordering: .relaxed) == 0 }

    /// Another object now hands out observations of this core; balance with ``handleReleased()``.
    func retainHandle() { state.withLock { $0.handles += 1 } }

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
        // The delivery loop checks the flag before each observer. No waiting for a delivery in
        // flight: its observer may be waiting for this very thread.
        entry.isActive.store(false, ordering: .releasing)
        let unused = state.withLock { state -> Bool in
            if let index = state.observers.firstIndex(where: { $0 === entry }) {
                state.observers.remove(at: index)
                listDidChange(&state)
            }
            return state.observers.isEmpty && state.handles == 0 && state.status == .alive
        }
        if unused { terminate() } else { releaseRemovedOnLoop() }
    }

    /// An owner went away: with none left and no observer, nobody can ever observe it again.
    func handleReleased() {
        let unused = state.withLock { state -> Bool in
            state.handles -= 1
            return state.handles == 0 && state.observers.isEmpty && state.status == .alive
        }
        if unused { terminate() }
    }

    /// Under the state lock, after any change to the list.
    private func listDidChange(_ state: inout State) {
        observerCount.store(state.observers.count, ordering: .relaxed)
        listChanged.store(true, ordering: .releasing)
    }

    func send(_ event: Event<Value>) {
        // Nobody to tell. An observer arriving at this very moment on another thread may miss
        // this value, as it may miss any value sent while it is being added.
        if !event.isCompleted, observerCount.load(ordering: .relaxed) == 0 { return }
        if event.isCompleted {
            if isConfined, let loop, !loop.isCurrent {
                // An input or a property released on another thread: the loop completes it, in
                // its turn.
                loop.schedule { [self] in send(.completed) }
                return
            }
            if isDeliveringHere {
                // A recursive completion: the delivery in flight on this thread ends with it.
                completionPending = true
                return
            }
        }
        withDeliveryLock(orFail: Self.recursiveSend) { ((), event) }
        if event.isCompleted { disposeUpstream() }
    }

    private static var recursiveSend: String {
        "Signal: recursive send. An observer sent a value into the signal it is observing; send from outside the observer or hop with observe(on:)."
    }

    /// Whether this thread is delivering an event of this signal now.
    private var isDeliveringHere: Bool { isConfined ? loopDelivering : delivery.isHeldByCurrentThread }

    /// Runs `update` and delivers the event it returns, so that what `update` changes and what
    /// observers are told cannot be interleaved with another thread's update: a property's
    /// value and its change signal stay in step. A cross-thread core holds its delivery lock
    /// throughout; a loop-confined one needs none (only the loop updates, and a producer is
    /// started on the loop: see ``PropertyStorage/producer``), and marks the delivery with a
    /// flag only the loop touches. Starting a delivery inside one traps with `message`.
    func withDeliveryLock<Result>(
        orFail message: @autoclosure () -> String, _ update: () throws -> (Result, Event<Value>?)
    ) rethrows -> Result {
        if isConfined {
            checkOnLoop()
            if loopDelivering { fatalError(message()) }
            loopDelivering = true
        } else {
            delivery.lock(orFail: message())
        }
        var completes = false
        defer {
            if isConfined { loopDelivering = false } else { delivery.unlock() }
            if completes { disposeUpstream() }
        }
        let (result, event) = try update()
        if let event {
            prepareLoopDelivery()
            deliver(event)
        }
        completes = finishDelivery()
        return result
    }

    /// Runs `body` where no event can be delivered meanwhile (at once when this thread is the
    /// one delivering, or on a loop-confined core's loop, where nothing else delivers): how a
    /// property hands out its current value and then its changes.
    func withoutConcurrentDelivery<Result>(_ body: () throws -> Result) rethrows -> Result {
        if isConfined || delivery.isHeldByCurrentThread { return try body() }
        delivery.lock()
        var completes = false
        defer {
            delivery.unlock()
            if completes { disposeUpstream() }
        }
        let result = try body()
        completes = finishDelivery()
        return result
    }

    /// Delivers `event` to the observers: the loop's copy of the list on a loop-confined core,
    /// a snapshot of the shared list on a cross-thread one, and for a completion the shared
    /// list itself, emptied (an observer added during the delivery it ends is in that one and
    /// not yet in the loop's copy). Called by the delivering thread only.
    private func deliver(_ event: Event<Value>) {
        let observers: ContiguousArray<ObserverEntry<Value>>
        if case .completed = event {
            guard let all = state.withLock({ state -> ContiguousArray<ObserverEntry<Value>>? in
                guard state.status == .alive else { return nil }
                state.status = .completed
                defer {
                    state.observers = []
                    listDidChange(&state)
                }
                return state.observers
            }) else { return }
            observers = all
            if isConfined { loopObservers = [] }
        } else if isConfined {
            observers = loopObservers
        } else {
            guard let alive = state.withLock({ $0.status == .alive ? $0.observers : nil }) else { return }
            observers = alive
        }
        for entry in observers where entry.isActive.load(ordering: .acquiring) {
            entry.observer.send(event)
        }
    }

    /// Delivers a completion sent from inside the delivery that is ending, and (on the loop)
    /// lets go of observers disposed meanwhile. Returns whether it completed.
    private func finishDelivery() -> Bool {
        var completed = false
        if completionPending {
            completionPending = false
            deliver(.completed)
            completed = true
        }
        prepareLoopDelivery()
        return completed
    }

    // MARK: Loop-confined delivery

    /// Takes the shared list again, on a loop-confined core, if it changed since the loop last
    /// looked.
    private func prepareLoopDelivery() {
        guard isConfined, listChanged.load(ordering: .acquiring) else { return }
        listChanged.store(false, ordering: .relaxed)
        loopObservers = state.withLock { $0.observers }
    }

    /// A disposed observer is released at once on the loop (at the end of the delivery in
    /// flight, if any), and by the loop's next action when disposed elsewhere.
    private func releaseRemovedOnLoop() {
        guard let loop else { return }
        if loop.isCurrent {
            if !loopDelivering { prepareLoopDelivery() }
        } else {
            loop.schedule { [self] in if !loopDelivering { prepareLoopDelivery() } }
        }
    }

    /// Traps in debug builds when a loop-confined core is sent into from outside its loop.
    @inline(__always)
    func checkOnLoop() {
        #if DEBUG
        if let loop, !loop.isCurrent {
            fatalError("Signal: sent from outside its loop. A loop-confined signal or property changes only in its scheduler's actions; schedule the change there, or make the source with observe(on:).")
        }
        #endif
    }

    private func terminate() {
        state.withLock { state in
            if state.status == .alive { state.status = .terminated }
            state.observers = []
            listDidChange(&state)
        }
        releaseRemovedOnLoop()
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
