/// A value that always exists and can be watched as it changes.
///
/// ## Contract
///
/// - ``value`` is the current value, readable from any thread.
/// - ``signal`` sends every change after the moment of observing (not the current value); it is
///   hot, shared by all its observers.
/// - ``producer`` sends, on each start, the current value at once, then every change: none
///   missed, none doubled, even when the property changes on another thread at the same moment.
/// - Changes are delivered synchronously on the thread that made them, one at a time. Changing
///   a mutable property from inside one of its own observers traps with a message.
public protocol PropertyProtocol<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable
    var value: Value { get }
    var signal: Signal<Value> { get }
    var producer: SignalProducer<Value> { get }
}
