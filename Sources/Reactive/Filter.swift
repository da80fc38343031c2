extension Signal {
    /// Only the values for which `isIncluded` holds; completion passes through.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        Signal { observer in
            self.observe(Observer { event in
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
            self.observe(Observer { event in
                switch event {
                case .value(let value): if let mapped = transform(value) { observer.send(mapped) }
                case .completed: observer.sendCompleted()
                }
            })
        }
    }
}
