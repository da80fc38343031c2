/// The value cell shared by ``MutableProperty`` and ``Property``: the current value, a signal of
/// changes, and the update lock that makes "current value, then changes" atomic.
final class PropertyStorage<Value: Sendable>: Sendable {
    private let update = Lock()
    private let current: Protected<Value>
    let changes: Signal<Value>
    private let input: Signal<Value>.Input

    init(_ initial: Value) {
        current = Protected(initial)
        (changes, input) = Signal<Value>.pipe()
    }

    var value: Value { current.value }

    func set(_ newValue: Value) {
        modify { $0 = newValue }
    }

    /// Changes the value in place and announces the result, all under the update lock.
    @discardableResult
    func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        update.lock(orFail: "Property: value changed from inside one of its own observers. Derive the new value with map/combineLatest instead, or hop with observe(on:).")
        defer { update.unlock() }
        let (result, newValue) = try current.withValue { value in
            let result = try body(&value)
            return (result, value)
        }
        input.send(newValue)
        return result
    }

    /// The current value, then every change. Taking the update lock while subscribing means no
    /// change can slip between reading the value and attaching the observer.
    var values: Signal<Value> {
        Signal { [self] observer in
            if update.isHeldByCurrentThread {
                // Subscribing from inside this property's own delivery: already serialized.
                observer.send(current.value)
                return changes.observe(observer)
            }
            update.lock()
            defer { update.unlock() }
            observer.send(current.value)
            return changes.observe(observer)
        }
    }
}
