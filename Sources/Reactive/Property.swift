import Basics

/// A read-only property: a view of a ``MutableProperty``, a constant, or a value composed from
/// another property (``PropertyProtocol/map(_:)``, ``PropertyProtocol/skipRepeats()``) or from
/// a signal (``init(initial:then:)``).
///
/// ## Memory
/// As in ReactiveSwift, a composed property does not keep its source alive: its source's
/// observation keeps *it* alive. It follows the source until the source goes away (its signal
/// then completes and it keeps its last value) or until it is released and nobody observes it
/// any more, when it stops observing the source. So `target <~ a.map(f)` works without holding
/// on to the mapped property, for as long as `a` lives. A view of a mutable property keeps that
/// mutable property alive.
public final class Property<Value: Sendable>: PropertyProtocol {
    private let storage: PropertyStorage<Value>
    /// What keeps the storage's source: the viewed mutable property, or nothing.
    private let source: (any Sendable & AnyObject)?
    private let ownsHandle: Bool
    /// For a property made by `map`: its source's producer, mapped. `skipRepeats()` composes
    /// from it directly, so `a.map(f).skipRepeats()` keeps one stored value, not two.
    private let composedFrom: SignalProducer<Value>?

    /// A read-only view of `property`.
    public init(_ property: MutableProperty<Value>) {
        storage = property.storage
        source = property
        ownsHandle = false
        composedFrom = nil
    }

    /// A property that never changes.
    public init(value: Value) {
        storage = PropertyStorage(value)
        source = nil
        ownsHandle = true
        composedFrom = nil
        storage.core.retainHandle()
    }

    /// A property that starts at `initial` and then takes every value `signal` sends: confined
    /// to the signal's loop if it has one.
    public init(initial: Value, then signal: Signal<Value>) {
        let storage = PropertyStorage(initial, loop: signal.loop)
        self.storage = storage
        source = nil
        ownsHandle = true
        composedFrom = nil
        storage.core.retainHandle()
        storage.core.attach(upstream: signal.observe(Observer { event in
            switch event {
            case .value(let value): storage.set(value)
            case .completed: storage.complete()
            }
        }))
    }

    /// A property that follows `producer`, which must send its first value synchronously on
    /// start (as a property's producer does), confined to `loop` if its source is.
    init(composing producer: SignalProducer<Value>, confinedTo loop: (any Scheduler)?, fusable: Bool = false) {
        let slot = Protected<PropertyStorage<Value>?>(nil)
        let observation = producer.start(Observer { event in
            switch event {
            case .value(let value):
                if let storage = slot.value {
                    storage.set(value)
                } else {
                    slot.withValue { $0 = PropertyStorage(value, loop: loop) }
                }
            case .completed:
                slot.value?.complete()
            }
        })
        guard let storage = slot.value else {
            fatalError("Property(composing:): the producer sent no value on start")
        }
        self.storage = storage
        source = nil
        ownsHandle = true
        composedFrom = fusable ? producer : nil
        storage.core.retainHandle()
        storage.core.attach(upstream: observation)
    }

    deinit {
        if ownsHandle { storage.core.handleReleased() }
    }

    public var value: Value { storage.value }
    public var signal: Signal<Value> { storage.signal }
    public var loop: (any Scheduler)? { storage.core.loop }
    /// Each start keeps this property alive until it is disposed, so that
    /// `a.map(f).producer.start(…)` follows `a` though nobody holds the mapped property.
    public var producer: SignalProducer<Value> {
        let values = storage.producer
        guard ownsHandle else { return values }
        return SignalProducer { [self] observer in
            let observation = values.start(observer)
            return ActionDisposable {
                observation.dispose()
                withExtendedLifetime(self) {}
            }
        }
    }
}

extension PropertyProtocol {
    /// A property holding `transform` of this one's value, kept up to date. A key path works
    /// too (`state.map(\.board)`), but the runtime projects it on every change: on a hot path,
    /// write the closure (`state.map { $0.board }`).
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> Property<U> {
        Property(composing: producer.map(transform), confinedTo: loop, fusable: true)
    }

    /// A property that only announces changes that are not equal to the previous value.
    public func skipRepeats() -> Property<Value> where Value: Equatable {
        Property(composing: producer.skipRepeats { $0 == $1 }, confinedTo: loop)
    }
}

extension Property {
    /// A property that only announces changes that are not equal to the previous value. After
    /// `map`, it follows the mapped source itself (the same values, one stored copy and one
    /// delivery fewer per change); the mapped property, left unobserved, stops at once.
    public func skipRepeats() -> Property<Value> where Value: Equatable {
        Property(composing: (composedFrom ?? producer).skipRepeats { $0 == $1 }, confinedTo: loop)
    }
}
