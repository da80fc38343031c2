extension Signal {
    /// Each value transformed by `transform`, on the sender's thread; completion passes through.
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U> {
        Signal<U> { observer in
            self.observe(Observer { event in
                switch event {
                case .value(let value): observer.send(transform(value))
                case .completed: observer.sendCompleted()
                }
            })
        }
    }

    /// Each value replaced by `value`; handy for turning taps into `Void` events.
    public func map<U: Sendable>(value: U) -> Signal<U> { map { _ in value } }
}
