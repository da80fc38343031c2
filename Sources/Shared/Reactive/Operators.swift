import Basics
import Synchronization

extension Signal {
    /// Each value transformed by `transform`, on the sender's thread; completion passes through.
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U> {
        Signal<U>(confinedTo: loop) { observer in observe(observer.mapping(transform)) }
    }

    /// Each value replaced by `value`; handy for turning taps into `Void` events.
    public func map<U: Sendable>(value: U) -> Signal<U> { map { _ in value } }

    /// Only the values for which `isIncluded` holds; completion passes through.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        Signal(confinedTo: loop) { observer in
            observe(Observer { event in
                switch event {
                case .value(let value): if isIncluded(value) { observer.send(value) }
                case .completed: observer.sendCompleted()
                }
            })
        }
    }

    /// The non-`nil` results of `transform`.
    public func compactMap<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U> {
        Signal<U>(confinedTo: loop) { observer in
            observe(Observer { event in
                switch event {
                case .value(let value): if let mapped = transform(value) { observer.send(mapped) }
                case .completed: observer.sendCompleted()
                }
            })
        }
    }

    /// Drops a value equivalent (by `isEquivalent`) to the one sent just before it. The first
    /// value always passes; the memory of the last value is shared by all observers.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal<Value> {
        Signal(confinedTo: loop) { observer in
            observe(observer.skippingRepeats(isEquivalent))
        }
    }

    /// The values of all `signals` as they arrive, in one stream: nine cells' taps as one "a
    /// cell was pressed" signal, say.
    ///
    /// Values from sources on different threads are serialized by the merged signal's own
    /// delivery lock; sources confined to one loop make a signal confined to it. The merged signal completes once every source has completed (at once for
    /// an empty array).
    public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        // Confined when every source is confined to the same loop: all deliveries are its.
        let loop = signals.first?.loop
        let shared = loop.map { loop in signals.allSatisfy { $0.loop === loop } } ?? false
        return Signal(confinedTo: shared ? loop : nil) { observer in
            guard !signals.isEmpty else {
                observer.sendCompleted()
                return nil
            }
            let remaining = Protected(signals.count)
            let observations = CompositeDisposable()
            for signal in signals {
                observations += signal.observe(Observer { event in
                    switch event {
                    case .value(let value):
                        observer.send(value)
                    case .completed:
                        let last = remaining.withValue { count -> Bool in
                            count -= 1
                            return count == 0
                        }
                        if last { observer.sendCompleted() }
                    }
                })
            }
            return observations
        }
    }

    /// The values of all the given signals in one stream. See ``merge(_:)-swift.type.method``.
    public static func merge(_ signals: Signal<Value>...) -> Signal<Value> { merge(signals) }

    /// Forwards every event by scheduling it on `scheduler`, in the order received.
    ///
    /// This is how events cross from a hardware reader thread (or a key-reading thread) onto the
    /// thread the game runs on. An event still waiting on the scheduler when an observer is
    /// disposed, or when this signal stops, is not delivered.
    ///
    /// Events wait in a queue that one prepared action drains, scheduled when the queue goes
    /// from empty to not: a hop allocates nothing once its queue has grown to the largest burst.
    /// The signal is confined to `scheduler` (see ``pipe(confinedTo:)``): only the drain sends.
    public func observe(on scheduler: any Scheduler) -> Signal<Value> {
        Signal(confinedTo: scheduler) { observer in hop(to: scheduler, delivering: observer) }
    }

    /// Observes values on `scheduler`: `observe(on: scheduler).observeValues(action)`, with no
    /// signal in between (one delivery fewer per event), for a single observer on a hot path
    /// such as the buttons' edges.
    @discardableResult
    public func observeValues(on scheduler: any Scheduler, _ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        hop(to: scheduler, delivering: Observer(value: action))
    }

    private func hop(to scheduler: any Scheduler, delivering observer: Observer<Value>) -> any Disposable {
        let hop = Hop(to: scheduler, delivering: observer)
        let observation = observe(Observer { event in hop.enqueue(event) })
        return ActionDisposable {
            observation.dispose()
            hop.cancel()
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops a value equal to the one sent just before it.
    public func skipRepeats() -> Signal<Value> {
        // A closure, not the `==` operator itself [6.0.3: operator-sendable]: Swift 6.0 cannot prove the operator Sendable.
        skipRepeats { $0 == $1 }
    }
}

/// The queue of one ``Signal/observe(on:)``: events arrive on any thread and leave on the
/// scheduler, in arrival order.
private final class Hop<Value: Sendable>: Sendable {
    /// What waits for the next drain.
    private let queue: Protected<[Event<Value>]>
    /// Read before each event of a batch without the queue's lock: one load an event.
    private let cancelled = CancelFlag()
    private let scheduler: any Scheduler
    /// Captures the queue, the flag, the observer and its own empty array, not the hop: a drain
    /// still waiting on the scheduler keeps what it needs alive.
    private let drain: ScheduledAction

    init(to scheduler: any Scheduler, delivering observer: Observer<Value>) {
        self.scheduler = scheduler
        var events: [Event<Value>] = [], spare: [Event<Value>] = []
        events.reserveCapacity(16)
        spare.reserveCapacity(16)
        let queue = Protected(events)
        self.queue = queue
        // The queue and the drain's array take turns, so that queueing and draining do not
        // allocate unless a burst outgrows them. The array is the drain's alone: the scheduler
        // runs one action at a time.
        let batch = Confined(spare)
        drain = ScheduledAction { [cancelled] in
            Hop.deliverQueued(from: queue, into: batch, to: observer, unless: cancelled)
        }
    }

    func enqueue(_ event: Event<Value>) {
        let wasEmpty = queue.withValue { events -> Bool in
            guard !cancelled.isSet else { return false }
            events.append(event)
            return events.count == 1
        }
        if wasEmpty { scheduler.schedule(prepared: drain) }
    }

    /// Drops what is queued; nothing more is delivered, even from a batch being drained.
    func cancel() {
        drain.dispose()
        queue.withValue { events in
            cancelled.set()
            events.removeAll()
        }
    }

    /// Takes the queued events in one turn of the lock, leaving the drain's empty array (and its
    /// capacity) to queue into, delivers them, and keeps the emptied array for the next drain.
    private static func deliverQueued(
        from queue: Protected<[Event<Value>]>, into batch: Confined<[Event<Value>]>, to observer: Observer<Value>,
        unless cancelled: CancelFlag
    ) {
        var events: [Event<Value>] = []
        swap(&events, &batch.value)
        queue.withValue { swap(&$0, &events) }
        for event in events {
            guard !cancelled.isSet else { return }
            observer.send(event)
        }
        // One at a time: `removeAll(keepingCapacity:)` costs more than this for the usual batch
        // of one or two edges, and keeps the capacity all the same.
        while !events.isEmpty { events.removeLast() }
        swap(&events, &batch.value)
    }
}

/// A flag that is set once and read from any thread without a lock.
private final class CancelFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
