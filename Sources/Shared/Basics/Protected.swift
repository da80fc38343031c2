import Synchronization

/// A value guarded by a mutex, for short critical sections. The mutex is not recursive: a
/// section must not reach the same `Protected` again, so what it calls (a property's `modify`
/// runs its caller's closure here) must not send an event or run a callback that could.
public final class Protected<State>: @unchecked Sendable {
    private let mutex = Mutex<Void>(())
    private var state: State

    public init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the value.
    public func withValue<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body(&state) }
    }

    /// A copy of the value. Not `withValue { $0 }` [6.0.3: optimiser-crash]: Debian's Swift 6.0.3 crashes (an assertion
    /// in SIL deserialization) on that specialisation, taken by a release build across modules.
    public var value: State { mutex.withLock { _ in state } }
}
