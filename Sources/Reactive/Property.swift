/// A read-only property: a view of a ``MutableProperty``, a constant, or a value derived from
/// other properties with ``map(_:)`` and ``combineLatest(_:_:)``.
///
/// A derived property keeps its sources alive and stays subscribed to them until it is
/// deallocated. Observing its `signal` or `values` keeps it alive for as long as the
/// observation lasts, so `target <~ a.map(f)` works without holding on to the mapped property.
public final class Property<Value: Sendable>: PropertyProtocol {
    private let storage: PropertyStorage<Value>
    private let upstream: (any Disposable)?

    /// A read-only view of `property`.
    public init(_ property: MutableProperty<Value>) {
        storage = property.storage
        upstream = nil
    }

    /// A property that never changes.
    public init(value: Value) {
        storage = PropertyStorage(value)
        upstream = nil
    }

    /// A property that starts at `initial` and then takes every value `signal` sends.
    public convenience init(initial: Value, then signal: Signal<Value>) {
        self.init(deriving: signal.startWith(initial))
    }

    /// A property that follows a signal which sends its current value synchronously on
    /// observation (as `values` of another property does).
    init(deriving values: Signal<Value>) {
        let slot = Protected<PropertyStorage<Value>?>(nil)
        upstream = values.observeValues { value in
            if let storage = slot.value {
                storage.set(value)
            } else {
                slot.withValue { $0 = PropertyStorage(value) }
            }
        }
        guard let storage = slot.value else {
            preconditionFailure("Property(deriving:): the source sent no current value on observation")
        }
        self.storage = storage
    }

    deinit { upstream?.dispose() }

    public var value: Value { storage.value }

    public var signal: Signal<Value> { retainingSelf(storage.changes) }
    public var values: Signal<Value> { retainingSelf(storage.values) }

    private func retainingSelf(_ signal: Signal<Value>) -> Signal<Value> {
        Signal { [self] observer in
            let observation = signal.observe(observer)
            return ActionDisposable {
                observation.dispose()
                withExtendedLifetime(self) {}
            }
        }
    }
}

extension PropertyProtocol {
    /// A property holding `transform` of this one's value, kept up to date.
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> Property<U> {
        Property(deriving: values.map(transform))
    }

    /// A property holding the value at `keyPath`, kept up to date.
    public func map<U: Sendable>(_ keyPath: KeyPath<Value, U> & Sendable) -> Property<U> {
        map { $0[keyPath: keyPath] }
    }

    /// A property that only announces changes that are not equal to the previous value.
    public func skipRepeats() -> Property<Value> where Value: Equatable {
        Property(deriving: values.skipRepeats())
    }
}

extension Property {
    /// A property holding the pair of the latest values of `a` and `b`.
    public static func combineLatest<A: PropertyProtocol, B: PropertyProtocol>(
        _ a: A, _ b: B
    ) -> Property<(A.Value, B.Value)> where Value == (A.Value, B.Value) {
        Property(deriving: Signal.combineLatest(a.values, b.values))
    }

    /// A property holding the triple of the latest values of `a`, `b` and `c`.
    public static func combineLatest<A: PropertyProtocol, B: PropertyProtocol, C: PropertyProtocol>(
        _ a: A, _ b: B, _ c: C
    ) -> Property<(A.Value, B.Value, C.Value)> where Value == (A.Value, B.Value, C.Value) {
        Property(deriving: Signal.combineLatest(a.values, b.values, c.values))
    }

    /// A property holding the latest values of four properties.
    public static func combineLatest<
        A: PropertyProtocol, B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol
    >(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) -> Property<(A.Value, B.Value, C.Value, D.Value)> where Value == (A.Value, B.Value, C.Value, D.Value) {
        Property(deriving: Signal.combineLatest(a.values, b.values, c.values, d.values))
    }
}
