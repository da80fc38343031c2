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
/// - A loop-confined property (``MutableProperty/init(_:confinedTo:)``, and what is composed
///   from one) changes only in its loop's actions, its signal is confined as
///   ``Signal/pipe(confinedTo:)`` describes, and its producer, started on another thread,
///   starts as one of the loop's actions and returns once it has sent the current value.
public protocol PropertyProtocol<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable
    var value: Value { get }
    var signal: Signal<Value> { get }
    var producer: SignalProducer<Value> { get }
    /// The scheduler whose actions alone change a loop-confined property; nil when any thread
    /// may.
    var loop: (any Scheduler)? { get }
}
