extension Signal {
    /// Pairs of the latest value of each source, sent whenever either sends once both have sent
    /// at least once. Completes when both sources have completed. Serialized per observer.
    public static func combineLatest<A: Sendable, B: Sendable>(
        _ a: Signal<A>, _ b: Signal<B>
    ) -> Signal<(A, B)> where Value == (A, B) {
        Signal { observer in
            let serial = Lock()
            let state = Protected<(a: A?, b: B?, completed: Int)>((nil, nil, 0))
            let emit: @Sendable ((inout (a: A?, b: B?, completed: Int)) -> Void) -> Void = { update in
                serial.lock(orFail: "Signal.combineLatest: recursive send into a combined source")
                defer { serial.unlock() }
                let pair = state.withValue { state -> (A, B)? in
                    update(&state)
                    guard let a = state.a, let b = state.b else { return nil }
                    return (a, b)
                }
                if let pair { observer.send(pair) }
            }
            let complete: @Sendable () -> Void = {
                let done = state.withValue { state -> Bool in
                    state.completed += 1
                    return state.completed == 2
                }
                if done { observer.sendCompleted() }
            }
            let disposables = CompositeDisposable()
            disposables += a.observe(Observer { event in
                switch event {
                case .value(let value): emit { $0.a = value }
                case .completed: complete()
                }
            })
            disposables += b.observe(Observer { event in
                switch event {
                case .value(let value): emit { $0.b = value }
                case .completed: complete()
                }
            })
            return disposables
        }
    }

    /// Triples of the latest values; see ``combineLatest(_:_:)``.
    public static func combineLatest<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>
    ) -> Signal<(A, B, C)> where Value == (A, B, C) {
        Signal<((A, B), C)>.combineLatest(Signal<(A, B)>.combineLatest(a, b), c)
            .map { ($0.0, $0.1, $1) }
    }

    /// Quadruples of the latest values; see ``combineLatest(_:_:)``.
    public static func combineLatest<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>, _ d: Signal<D>
    ) -> Signal<(A, B, C, D)> where Value == (A, B, C, D) {
        Signal<((A, B), (C, D))>.combineLatest(
            Signal<(A, B)>.combineLatest(a, b), Signal<(C, D)>.combineLatest(c, d)
        ).map { ($0.0, $0.1, $1.0, $1.1) }
    }
}
