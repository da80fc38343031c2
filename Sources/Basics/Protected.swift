import Synchronization

/// A value guarded by a mutex, for short critical sections that never call out (never send an
/// event or run a callback while holding it).
public final class Protected<State>: @unchecked Sendable {
    private let mutex = Mutex<Void>(())
    private var state: State

    public init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the value.
    public func withValue<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body(&state) }
    }

    /// A copy of the value.
    public var value: State { withValue { $0 } }
}
