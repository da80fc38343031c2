extension Signal {
    /// Each value transformed by `transform`, on the sender's thread; completion passes through.
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U> {
        Signal<U> { observer in
            observe(Observer { event in
                switch event {
                case .value(let value): observer.send(transform(value))
                case .completed: observer.sendCompleted()
                }
            })
        }
    }

    /// Each value replaced by `value`; handy for turning taps into `Void` events.
    public func map<U: Sendable>(value: U) -> Signal<U> { map { _ in value } }

    /// Only the values for which `isIncluded` holds; completion passes through.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        Signal { observer in
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
        Signal<U> { observer in
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
        Signal { observer in
            observe(observer.skippingRepeats(isEquivalent))
        }
    }

    /// The values of all `signals` as they arrive, in one stream: the seed's merge of nine
    /// button taps into one "a cell was pressed" signal.
    ///
    /// Values from sources on different threads are serialized by the merged signal's own
    /// delivery lock. The merged signal completes once every source has completed (at once for
    /// an empty array).
    public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        Signal { observer in
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
    public func observe(on scheduler: any Scheduler) -> Signal<Value> {
        Signal { observer in
            observe(Observer { event in
                scheduler.schedule { observer.send(event as Event<Value>) }
            })
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops a value equal to the one sent just before it.
    public func skipRepeats() -> Signal<Value> {
        // A closure, not the `==` operator itself: Swift 6.0 cannot prove the operator Sendable.
        skipRepeats { $0 == $1 }
    }
}
