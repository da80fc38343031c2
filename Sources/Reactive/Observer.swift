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
