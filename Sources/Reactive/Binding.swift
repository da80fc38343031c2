precedencegroup BindingPrecedence {
    associativity: right
    higherThan: AssignmentPrecedence
}

/// Binds a source into a target: `target <~ source`.
infix operator <~ : BindingPrecedence

/// Something values can be bound into, for as long as its lifetime lasts.
public struct BindingTarget<Value: Sendable>: Sendable, BindingTargetProvider {
    /// When this ends, every binding into the target is disposed.
    public let lifetime: Lifetime
    private let action: @Sendable (Value) -> Void

    public init(lifetime: Lifetime, action: @escaping @Sendable (Value) -> Void) {
        self.lifetime = lifetime
        self.action = action
    }

    public func consume(_ value: Value) { action(value) }

    public var bindingTarget: BindingTarget<Value> { self }
}

/// A type that offers a ``BindingTarget``: mutable properties, actions, output devices.
public protocol BindingTargetProvider<Value> {
    associatedtype Value: Sendable
    var bindingTarget: BindingTarget<Value> { get }
}

/// Sends every value of `source` into `target`, on the source's thread, until the target's
/// lifetime ends, the source completes or the returned disposable is disposed.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: Signal<Target.Value>
) -> any Disposable {
    bind(target.bindingTarget) { consume in source.observeValues(consume) }
}

/// Starts `source` and sends its values into `target`, until the target's lifetime ends or the
/// returned disposable is disposed.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: SignalProducer<Target.Value>
) -> any Disposable {
    bind(target.bindingTarget) { consume in source.startWithValues(consume) }
}

/// Sends the current value of `source` into `target` at once, then every change, until the
/// target's lifetime ends or the returned disposable is disposed.
@discardableResult
public func <~ <Target: BindingTargetProvider, Source: PropertyProtocol>(
    target: Target, source: Source
) -> any Disposable where Source.Value == Target.Value {
    target <~ source.producer
}

/// Starts an observation feeding `target` and ties it to the target's lifetime.
private func bind<Value: Sendable>(
    _ target: BindingTarget<Value>, _ observe: (@escaping @Sendable (Value) -> Void) -> any Disposable
) -> any Disposable {
    let observation = observe { target.consume($0) }
    let whenEnded = target.lifetime.observeEnded { observation.dispose() }
    return ActionDisposable {
        observation.dispose()
        whenEnded.dispose()
    }
}
