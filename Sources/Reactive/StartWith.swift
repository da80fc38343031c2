extension Signal {
    /// Delivers `value` to each observer as it starts observing, then the signal's own events.
    public func startWith(_ value: Value) -> Signal<Value> { prefix(value) }

    /// Delivers `values` to each observer as it starts observing, then the signal's own events.
    public func prefix(_ values: Value...) -> Signal<Value> {
        Signal { observer in
            for value in values { observer.send(value) }
            return self.observe(observer)
        }
    }
}
