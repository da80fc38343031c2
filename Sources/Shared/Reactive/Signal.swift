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
