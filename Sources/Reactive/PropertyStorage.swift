import Synchronization

/// The value cell behind every property: the current value and the core of its change signal.
///
/// A change takes the signal's delivery lock, changes the value and announces it before letting
/// go, so changes from several threads reach observers in the order they were made, and a
/// producer started meanwhile sees the value and then exactly the changes after it.
///
/// Reading the value from inside a `modify` of the same property (on the modifying thread) is
/// refused with a message: the value is being changed in place, and the body has it as its
/// `inout` argument. Other threads read the value from before the change meanwhile.
final class PropertyStorage<Value: Sendable>: Sendable {
    let core = SignalCore<Value>(handles: 0)
    private let current: Protected<Value>
    /// The thread inside `modify`'s body, or 0.
    private let modifyingThread = Atomic<UInt>(0)

    init(_ initial: Value) {
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
        core.withDeliveryLock(orFail: "Property: value changed from inside one of its own observers. Derive the new value with map instead, or hop with observe(on:).") {
            let (result, newValue) = current.withValue { value -> (Result, Value) in
                modifyingThread.store(Lock.currentThread, ordering: .relaxed)
                defer { modifyingThread.store(0, ordering: .relaxed) }
                let result = body(&value)
                return (result, value)
            }
            return (result, .value(newValue))
        }
    }

    /// Ends the change signal: the source is gone, and the value stays as it is.
    func complete() { core.send(.completed) }

    var signal: Signal<Value> { Signal(sharing: core) }

    var producer: SignalProducer<Value> {
        SignalProducer { [self] observer in
            core.withoutConcurrentDelivery {
                observer.send(current.value)
                return core.add(observer)
            }
        }
    }
}
