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
    /// The mutable property this one is a view of, kept alive with it: its signal completes
    /// when it goes.
    private let viewed: MutableProperty<Value>?
    /// For a property made by `map`: its source's producer, mapped. `skipRepeats()` composes
    /// from it directly, so `a.map(f).skipRepeats()` keeps one stored value, not two.
    private let composedFrom: SignalProducer<Value>?

    /// The one designated initialiser; the others are conveniences over it. The property holds
    /// one of the storage's handles, so that what the storage follows stays followed while the
    /// property lives, and after it while someone observes it.
    private init(
        storage: PropertyStorage<Value>, viewing viewed: MutableProperty<Value>? = nil,
        composedFrom: SignalProducer<Value>? = nil
    ) {
        self.storage = storage
        self.viewed = viewed
        self.composedFrom = composedFrom
        storage.core.retainHandle()
    }

    deinit { storage.core.handleReleased() }

    /// A read-only view of `property`.
    public convenience init(_ property: MutableProperty<Value>) {
        self.init(storage: property.storage, viewing: property)
    }

    /// A property that never changes.
    public convenience init(value: Value) {
        self.init(storage: PropertyStorage(value))
    }

    /// A property that starts at `initial` and then takes every value `signal` sends: confined
    /// to the signal's loop if it has one.
    public convenience init(initial: Value, then signal: Signal<Value>) {
        let storage = PropertyStorage(initial, loop: signal.loop)
        self.init(storage: storage)
        storage.core.attach(upstream: signal.observe(Observer { event in storage.follow(event) }))
    }

    /// A property that follows `producer`, which must send its first value synchronously on
    /// start (as a property's producer does), confined to `loop` if its source is. Fusable:
    /// `skipRepeats()` may start `producer` itself instead of following this property.
    convenience init(composing producer: SignalProducer<Value>, confinedTo loop: (any Scheduler)?, fusable: Bool = false) {
        // The storage is made from the first value, which arrives before `start` returns.
        let slot = Protected<PropertyStorage<Value>?>(nil)
        let observation = producer.start(Observer { event in
            if let storage = slot.value {
                storage.follow(event)
            } else if case .value(let value) = event {
                slot.withValue { $0 = PropertyStorage(value, loop: loop) }
            }
        })
        guard let storage = slot.value else {
            fatalError("Property(composing:): the producer sent no value on start")
        }
        self.init(storage: storage, composedFrom: fusable ? producer : nil)
        storage.core.attach(upstream: observation)
    }

    public var value: Value { storage.value }
    public var signal: Signal<Value> { storage.signal }
    public var loop: (any Scheduler)? { storage.core.loop }
    public var producer: SignalProducer<Value> { storage.producer }
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
