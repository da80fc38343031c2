/// Receives the events of a signal. A thin wrapper over a closure; the guarantees (one event at
/// a time, nothing after completion or disposal) come from the signal, not from the observer.
public struct Observer<Value: Sendable>: Sendable {
    private let action: @Sendable (Event<Value>) -> Void

    public init(_ action: @escaping @Sendable (Event<Value>) -> Void) {
        self.action = action
    }

    /// An observer that only cares about values.
    public init(value: @escaping @Sendable (Value) -> Void) {
        self.action = { event in
            if case .value(let v) = event { value(v) }
        }
    }

    public func send(_ event: Event<Value>) { action(event) }
    public func send(_ value: Value) { action(.value(value)) }
    public func sendCompleted() { action(.completed) }
}

extension Observer {
    /// An observer of `Source` values that passes each on to this one transformed by
    /// `transform`, and completion as it is: `map` for signals and producers alike.
    func mapping<Source: Sendable>(_ transform: @escaping @Sendable (Source) -> Value) -> Observer<Source> {
        Observer<Source> { event in
            switch event {
            case .value(let value): send(transform(value))
            case .completed: sendCompleted()
            }
        }
    }

    /// An observer that passes events on to this one, dropping a value equivalent to the one
    /// just before it: `skipRepeats` for signals and producers alike. Its memory of the last
    /// value is touched only inside the deliveries of what it observes, which are serialized.
    func skippingRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Observer<Value> {
        let last = Confined<Value?>(nil)
        return Observer { event in
            switch event {
            case .value(let value):
                let previous = last.value
                last.value = value
                if let previous, isEquivalent(previous, value) { return }
                send(value)
            case .completed:
                sendCompleted()
            }
        }
    }
}
