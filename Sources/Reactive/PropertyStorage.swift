/// The value cell behind every property: the current value and the core of its change signal.
///
/// A change takes the signal's delivery lock, changes the value and announces it before letting
/// go, so changes from several threads reach observers in the order they were made, and a
/// producer started meanwhile sees the value and then exactly the changes after it.
final class PropertyStorage<Value: Sendable>: Sendable {
    let core = SignalCore<Value>(handles: 0)
    private let current: Protected<Value>

    init(_ initial: Value) {
        current = Protected(initial)
    }

    var value: Value { current.value }

    func set(_ newValue: Value) {
        modify { $0 = newValue }
    }

    /// Changes the value in place and announces the result once.
    @discardableResult
    func modify<Result>(_ body: (inout Value) -> Result) -> Result {
        core.withDeliveryLock(orFail: "Property: value changed from inside one of its own observers. Derive the new value with map instead, or hop with observe(on:).") {
            let (result, newValue) = current.withValue { value -> (Result, Value) in
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
