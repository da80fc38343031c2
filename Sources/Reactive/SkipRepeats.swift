extension Signal {
    /// Drops a value equal (by `isEquivalent`) to the one delivered just before it. State is
    /// per observer: each observer's first value always passes.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal<Value> {
        Signal { observer in
            let last = Protected<Value?>(nil)
            return self.observe(Observer { event in
                switch event {
                case .value(let value):
                    let isRepeat = last.withValue { last -> Bool in
                        defer { last = value }
                        guard let previous = last else { return false }
                        return isEquivalent(previous, value)
                    }
                    if !isRepeat { observer.send(value) }
                case .completed:
                    observer.sendCompleted()
                }
            })
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops a value equal to the one delivered just before it.
    public func skipRepeats() -> Signal<Value> {
        // A closure, not the `==` operator itself: Swift 6.0 cannot prove the operator Sendable.
        skipRepeats { $0 == $1 }
    }
}
