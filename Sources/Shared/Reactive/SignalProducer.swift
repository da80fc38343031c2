/// A recipe for a stream, run afresh for each observer that starts it: ReactiveSwift's
/// `SignalProducer`. A property's ``PropertyProtocol/producer`` is one: each start sends the
/// property's current value, then its changes.
///
/// ## Contract
/// - **Cold.** Nothing happens until ``start(_:)``; each start runs the recipe again, so
///   operators keep their state (the last value, for `skipRepeats`) per start.
/// - **Threading and ordering.** Whatever the recipe does: a property's producer sends the
///   current value synchronously inside `start`, then each change on the thread that made it.
/// - **Disposal.** After the disposable returned by `start` is disposed, nothing more arrives.
public struct SignalProducer<Value: Sendable>: Sendable {
    private let startHandler: @Sendable (Observer<Value>) -> any Disposable

    /// A producer that runs `startHandler` for each start; it returns what stops that run.
    public init(_ startHandler: @escaping @Sendable (Observer<Value>) -> any Disposable) {
        self.startHandler = startHandler
    }

    /// Runs the recipe, delivering its events to `observer` until the result is disposed.
    @discardableResult
    public func start(_ observer: Observer<Value>) -> any Disposable { startHandler(observer) }

    /// Runs the recipe, delivering its values to `action`.
    @discardableResult
    public func startWithValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        start(Observer(value: action))
    }

    /// Each value transformed by `transform`; completion passes through.
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> SignalProducer<U> {
        SignalProducer<U> { observer in start(observer.mapping(transform)) }
    }

    /// Drops a value equivalent to the one sent just before it, per start.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> SignalProducer<Value> {
        SignalProducer { observer in
            start(observer.skippingRepeats(isEquivalent))
        }
    }
}
