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
/// lifetime ends, the source completes or the returned disposable is disposed. Whichever comes
/// first ends the binding on both sides: nothing of it stays in the target's lifetime.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: Signal<Target.Value>
) -> any Disposable {
    bind(target.bindingTarget) { observer in source.observe(observer) }
}

/// Starts `source` and sends its values into `target`, until the target's lifetime ends, the
/// source completes or the returned disposable is disposed.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: SignalProducer<Target.Value>
) -> any Disposable {
    bind(target.bindingTarget) { observer in source.start(observer) }
}

/// Sends the current value of `source` into `target` at once, then every change, until the
/// target's lifetime ends, the source completes (its owner is gone) or the returned disposable
/// is disposed.
@discardableResult
public func <~ <Target: BindingTargetProvider, Source: PropertyProtocol>(
    target: Target, source: Source
) -> any Disposable where Source.Value == Target.Value {
    target <~ source.producer
}

/// Starts an observation feeding `target`, ties it to the target's lifetime, and lets go of
/// both when the binding ends, whichever way it ends: the disposable handed back holds nothing
/// of a finished binding (as in ReactiveSwift), though the caller may keep it for long after.
private func bind<Value: Sendable>(
    _ target: BindingTarget<Value>, _ observe: (Observer<Value>) -> any Disposable
) -> any Disposable {
    // Filled once the observation has started: a source that completes at once disposes it
    // empty, and it then disposes what it is given at once.
    let binding = SerialDisposable()
    let observation = observe(Observer { event in
        switch event {
        case .value(let value): target.consume(value)
        case .completed: binding.dispose()
        }
    })
    let untie = target.lifetime.observeEnded { binding.dispose() }
    binding.inner = ActionDisposable {
        observation.dispose()
        untie.dispose()
    }
    return binding
}
