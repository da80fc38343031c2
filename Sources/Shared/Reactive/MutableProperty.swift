/// A property whose value is set from outside: the view model's state, and binding targets.
///
/// Its ``lifetime`` ends when it is deallocated; bindings into it end then, and its signal
/// completes.
public final class MutableProperty<Value: Sendable>: PropertyProtocol, BindingTargetProvider {
    let storage: PropertyStorage<Value>
    private let token: Lifetime.Token
    /// Ends when this property is deallocated.
    public let lifetime: Lifetime

    /// A property any thread may change.
    public convenience init(_ initial: Value) { self.init(initial, loop: nil) }

    /// A loop-confined property (see ``PropertyProtocol``): for the game loop's state, changed
    /// only by `loop`'s actions, delivered without a lock.
    public convenience init(_ initial: Value, confinedTo loop: any Scheduler) { self.init(initial, loop: loop) }

    private init(_ initial: Value, loop: (any Scheduler)?) {
        storage = PropertyStorage(initial, loop: loop)
        storage.core.retainHandle()
        (lifetime, token) = Lifetime.make()
    }

    deinit {
        storage.complete()
        storage.core.handleReleased()
    }

    /// The current value. Setting it announces the new value to observers before returning.
    public var value: Value {
        get { storage.value }
        set { storage.set(newValue) }
    }

    /// Changes the value in place, atomically, and announces the result once: how one input
    /// makes one change, however many fields it touches.
    @discardableResult
    public func modify<Result>(_ body: (inout Value) -> Result) -> Result {
        storage.modify(body)
    }

    public var signal: Signal<Value> { storage.signal }
    public var loop: (any Scheduler)? { storage.core.loop }
    public var producer: SignalProducer<Value> { storage.producer }

    public var bindingTarget: BindingTarget<Value> {
        BindingTarget(lifetime: lifetime) { [storage] in storage.set($0) }
    }
}
