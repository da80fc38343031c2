extension Signal {
    /// Forwards every event by scheduling it on `scheduler`, in the order received.
    ///
    /// This is how events cross from a hardware reader thread (or a key-reading thread) onto the
    /// thread the game runs on. An event already scheduled when the observation is disposed is
    /// dropped if it has not started running.
    public func observe(on scheduler: any Scheduler) -> Signal<Value> {
        Signal { observer in
            let stopped = Protected(false)
            let upstream = self.observe(Observer { event in
                scheduler.schedule {
                    guard !stopped.value else { return }
                    observer.send(event as Event<Value>)
                }
            })
            return ActionDisposable {
                stopped.withValue { $0 = true }
                upstream.dispose()
            }
        }
    }
}
