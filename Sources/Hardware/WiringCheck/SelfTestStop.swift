import Basics
import Reactive

/// Ends a running self-test from another thread, a signal handler's: every LED off and every
/// line released at once, while the test itself may be blocked waiting for an answer.
///
/// ## Contract
/// - ``stop()`` runs the teardown of the self-test running at that moment, once, and returns when
///   it is done; with no self-test running it does nothing. The caller then ends the process:
///   the walk-through does not go on after it.
/// - The teardown is the same as at the test's normal end, and runs at most once either way.
public final class SelfTestStop: Sendable {
    private let teardown = Protected<(@Sendable () -> Void)?>(nil)

    public init() {}

    public func stop() { disarm()?() }

    func arm(_ body: @escaping @Sendable () -> Void) { teardown.withValue { $0 = body } }

    /// Takes the teardown back for the test's own end; nil when ``stop()`` already ran it.
    func disarm() -> (@Sendable () -> Void)? {
        teardown.withValue { body in
            defer { body = nil }
            return body
        }
    }
}
