extension Signal {
    /// The values of all `signals` as they arrive, in one stream: the seed's merge of nine
    /// button taps into one "a cell was pressed" signal.
    ///
    /// Values from sources on different threads are serialized, one at a time. The merged
    /// signal completes once every source has completed (at once for an empty array).
    public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        Signal { observer in
            guard !signals.isEmpty else {
                observer.sendCompleted()
                return ActionDisposable {}
            }
            let serial = Lock()
            let remaining = Protected(signals.count)
            let disposables = CompositeDisposable()
            for signal in signals {
                disposables += signal.observe(Observer { event in
                    switch event {
                    case .value(let value):
                        serial.lock(orFail: "Signal.merge: recursive send into a merged source")
                        defer { serial.unlock() }
                        observer.send(value)
                    case .completed:
                        let last = remaining.withValue { count -> Bool in
                            count -= 1
                            return count == 0
                        }
                        if last {
                            serial.lock(orFail: "Signal.merge: recursive completion")
                            defer { serial.unlock() }
                            observer.sendCompleted()
                        }
                    }
                })
            }
            return disposables
        }
    }

    /// The values of all the given signals in one stream. See ``merge(_:)-swift.type.method``.
    public static func merge(_ signals: Signal<Value>...) -> Signal<Value> { merge(signals) }
}
