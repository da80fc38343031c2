/// A push-driven stream of values over time, ending with at most one completion.
///
/// ## Contract
///
/// - **Hot.** A signal made by ``pipe()`` delivers what its input sends *now*; an observer that
///   arrives late misses earlier values. Operators (`map`, `merge`, …) build new signals that
///   subscribe to their sources per observer, so they keep no state between observers and
///   leak nothing when nobody listens.
/// - **Threading.** Events are delivered synchronously on the sender's thread, before `send`
///   returns. Use ``observe(on:)`` to hop to a scheduler.
/// - **Ordering.** One event at a time: sends from several threads are serialized by the
///   signal's delivery lock, and every observer sees the same order. Sending into a signal from
///   one of its own observers is a programming error and traps with a message.
/// - **Termination.** After `.completed`, nothing more is delivered; observing a completed signal
///   delivers `.completed` at once. A pipe completes when its input sends completion or is
///   deallocated.
/// - **Disposal.** After the disposable returned by `observe` is disposed, the observer gets no
///   further event. Disposing from another thread waits for an event being delivered to finish.
/// - **Memory.** A pipe's core keeps its observers; an observer is released when it is disposed
///   or the signal completes. Observers never keep the input alive.
public struct Signal<Value: Sendable>: Sendable {
    private let subscribe: @Sendable (Observer<Value>) -> any Disposable

    /// A signal whose observers are attached by `subscribe`, which returns what detaches them.
    /// Operators are written with this initialiser.
    public init(_ subscribe: @escaping @Sendable (Observer<Value>) -> any Disposable) {
        self.subscribe = subscribe
    }

    /// Starts delivering events to `observer` until the returned disposable is disposed.
    @discardableResult
    public func observe(_ observer: Observer<Value>) -> any Disposable {
        subscribe(observer)
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

    /// A signal and the input that sends into it.
    public static func pipe() -> (output: Signal<Value>, input: Input) {
        let core = SignalCore<Value>()
        return (Signal { core.add($0) }, Input(core))
    }

    /// A signal that never sends anything and never completes.
    public static var never: Signal<Value> { Signal { _ in ActionDisposable {} } }

    /// A signal that completes at once on observation.
    public static var empty: Signal<Value> {
        Signal { observer in
            observer.sendCompleted()
            return ActionDisposable {}
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

/// The shared state behind a pipe: its observers and whether it has completed.
private final class SignalCore<Value: Sendable>: Sendable {
    private struct State {
        var nextKey = 0
        var observers: [(key: Int, observer: Observer<Value>)] = []
        var completed = false
    }

    private let delivery = Lock()
    private let state = Protected(State())

    func add(_ observer: Observer<Value>) -> any Disposable {
        let key = state.withValue { state -> Int? in
            guard !state.completed else { return nil }
            defer { state.nextKey += 1 }
            state.observers.append((state.nextKey, observer))
            return state.nextKey
        }
        guard let key else {
            observer.sendCompleted()
            return ActionDisposable {}
        }
        return ActionDisposable { [weak self] in self?.remove(key) }
    }

    private func remove(_ key: Int) {
        // Inside a delivery on this thread the delivery loop re-checks membership before each
        // observer, so removing is enough; from elsewhere, wait for an in-flight event to finish.
        if delivery.isHeldByCurrentThread {
            state.withValue { $0.observers.removeAll { $0.key == key } }
        } else {
            delivery.lock()
            defer { delivery.unlock() }
            state.withValue { $0.observers.removeAll { $0.key == key } }
        }
    }

    func send(_ event: Event<Value>) {
        delivery.lock(orFail: "Signal: recursive send. An observer sent an event into the signal it is observing; send from outside the observer or hop with observe(on:).")
        defer { delivery.unlock() }
        let snapshot = state.withValue { state -> [(key: Int, observer: Observer<Value>)] in
            guard !state.completed else { return [] }
            if case .completed = event { state.completed = true }
            return state.observers
        }
        for (index, entry) in snapshot.enumerated() {
            // An observer earlier in this delivery may have disposed a later one.
            if index > 0, !state.withValue({ $0.observers.contains { $0.key == entry.key } }) {
                continue
            }
            entry.observer.send(event)
        }
        if case .completed = event {
            state.withValue { $0.observers = [] }
        }
    }
}
