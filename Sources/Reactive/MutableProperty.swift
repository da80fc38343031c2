/// A property whose value is set from outside: the view model's private state, and binding
/// targets such as the LED matrix's frame.
///
/// Its ``lifetime`` ends when it is deallocated; bindings into it end then. Its signals complete
/// when the last reference to its storage goes away.
public final class MutableProperty<Value: Sendable>: PropertyProtocol, BindingTargetProvider {
    let storage: PropertyStorage<Value>
    private let token: Lifetime.Token
    /// Ends when this property is deallocated.
    public let lifetime: Lifetime

    public init(_ initial: Value) {
        storage = PropertyStorage(initial)
        (lifetime, token) = Lifetime.make()
    }

    /// The current value. Setting it announces the new value to observers before returning.
    public var value: Value {
        get { storage.value }
        set { storage.set(newValue) }
    }

    /// Changes the value in place, atomically, and announces the result once.
    @discardableResult
    public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.modify(body)
    }

    public var signal: Signal<Value> { storage.changes }
    public var values: Signal<Value> { storage.values }

    public var bindingTarget: BindingTarget<Value> {
        BindingTarget(lifetime: lifetime) { [storage] in storage.set($0) }
    }
}
