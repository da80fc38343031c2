import Basics
import Synchronization

/// The value cell behind every property: the current value and the core of its change signal.
///
/// A change takes the signal's delivery lock, changes the value and announces it before letting
/// go, so changes from several threads reach observers in the order they were made, and a
/// producer started meanwhile sees the value and then exactly the changes after it.
///
/// A loop-confined storage (made with a `loop`) changes only in the loop's actions, and its
/// change signal's core is confined to the loop: no delivery lock, and a producer started on
/// another thread starts as one of the loop's actions.
///
/// Reading the value from inside a `modify` of the same property (on the modifying thread) is
/// refused with a message: the value is being changed in place, and the body has it as its
/// `inout` argument. Other threads read the value from before the change meanwhile.
final class PropertyStorage<Value: Sendable>: Sendable {
    let core: SignalCore<Value>
    private let current: Protected<Value>
    /// The thread inside `modify`'s body, or 0.
    private let modifyingThread = Atomic<UInt>(0)

    init(_ initial: Value, loop: (any Scheduler)? = nil) {
        core = SignalCore(handles: 0, loop: loop)
        current = Protected(initial)
    }

    var value: Value {
        if modifyingThread.load(ordering: .relaxed) == Lock.currentThread {
            fatalError("Property: value read inside its own modify. Use modify's inout argument, which is the value being changed.")
        }
        return current.value
    }

    func set(_ newValue: Value) {
        modify { $0 = newValue }
    }

    /// Changes the value in place and announces the result once.
    @discardableResult
    func modify<Result>(_ body: (inout Value) -> Result) -> Result {
        // On the loop with nobody watching, there is nothing to announce: a producer starts on
        // the loop, so none can be starting now, and an observer added on another thread at
        // this moment may miss this change, as it may miss any change made while it is added.
        let announces = !core.changesUnobservedFreely
        // Marked as this thread's modify, so that a read of the value inside is refused. One
        // change for both paths, always returning a pair [6.0.3: optimiser-crash]: Swift 6.0.3's optimiser crashes on a
        // Void-returning specialisation of `withValue` inlined into a client module (make deb).
        func change() -> (Result, Value) {
            current.withValue { value -> (Result, Value) in
                modifyingThread.store(Lock.currentThread, ordering: .relaxed)
                defer { modifyingThread.store(0, ordering: .relaxed) }
                let result = body(&value)
                return (result, value)
            }
        }
        guard announces else { return change().0 }
        return core.withDeliveryLock(orFail: "Property: value changed from inside one of its own observers. Derive the new value with map instead, or hop with observe(on:).") {
            let (result, newValue) = change()
            return (result, .value(newValue))
        }
    }

    /// Ends the change signal: the source is gone, and the value stays as it is.
    func complete() { core.send(.completed) }

    /// Takes an event of the source this storage follows (a composed property's).
    func follow(_ event: Event<Value>) {
        switch event {
        case .value(let value): set(value)
        case .completed: complete()
        }
    }

    var signal: Signal<Value> { Signal(sharing: core) }

    /// Each start sends the current value, then every change. The producer holds one of the
    /// core's handles for as long as it exists, so that one made from a property nobody holds
    /// (`a.map(f).producer`) still follows the property's source when it is started; a start
    /// is then kept by its observation, as any observer is.
    var producer: SignalProducer<Value> {
        let handle = signal
        return SignalProducer { [self] observer in
            withExtendedLifetime(handle) {
                guard let loop = core.loop, !loop.isCurrent else { return start(observer) }
                // Started elsewhere, a confined property's producer starts on its loop.
                return loop.runAndWait { [self] in start(observer) }
            }
        }
    }

    /// The current value, then every change: on the thread delivering, or on the loop.
    private func start(_ observer: Observer<Value>) -> any Disposable {
        core.withoutConcurrentDelivery {
            observer.send(current.value)
            return core.add(observer)
        }
    }
}
