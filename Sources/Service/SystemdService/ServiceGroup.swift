import Basics
import Dispatch
import Reactive

/// One part of a running service, brought up by ``start()`` and taken down by ``stop()``.
///
/// The shape is swift-service-lifecycle's (small services in a group that starts them in order
/// and stops them in reverse), with a `start`/`stop` pair instead of one long `run()`: none of
/// the board's parts has a loop of its own to await (the game loop is a thread, the rest are
/// timers and observations), so a task per part would only wait.
///
/// ## Contract
/// - ``ServiceGroup`` calls ``start()`` once, and ``stop()`` once, only after ``start()``
///   returned: a part whose start throws leaves nothing behind and is not stopped.
/// - ``stop()`` does not throw: a part stops as well as it can and reports what it could not do.
///   It should return within ``ServiceGroup/defaultStopDeadline``: the group waits no longer.
/// - A part that fails after its start (its device gone bad, say) does not stop itself: it
///   reports the failure to the group's ``PartFailures`` once, and the group stops every part.
/// - A part may use the parts before it in the group from its ``start()`` to its ``stop()``:
///   they are started before it and stopped after it.
public protocol ServicePart: Sendable {
    /// What the part is, in a few words, for logs and tests.
    var name: String { get }
    func start() async throws
    func stop() async
}

/// Parts started in order and stopped in reverse: a part can rely on every part before it.
///
/// ## Contract
/// - ``run(until:)`` starts the parts one at a time, in order, each once the one before has
///   started; then waits for `shutdown` or a part's failure (``PartFailures``), whichever comes
///   first; then stops the started parts one at a time in reverse.
/// - When a part's ``ServicePart/start()`` throws, the parts already started are stopped in
///   reverse, no later part is started, `shutdown` is not awaited, and the error is rethrown.
/// - When a part reports a failure before `shutdown` returns (or during the start), the waiting
///   task of `shutdown` is cancelled (`shutdown` must end when it is), the parts are stopped in
///   reverse, and ``PartFailed`` is thrown: the process ends with a status of its own, and
///   systemd (`Restart=on-failure`) starts it again. The last part stops first: the board
///   service puts its watchdog last, so that no ping follows a failure.
/// - Stopping has a deadline: all the stops together are waited for at most `stopDeadline` on
///   `clock`, measured from the first. A part whose stop has not returned by then is left
///   running, the parts before it are not stopped (they may be what it waits on), and
///   ``StopOverran`` is thrown, naming it, so that the process exits anyway. Each stop runs in a
///   task of its own, so a stop that blocks its thread (a `runAndWait` on a wedged game loop)
///   holds one thread of the cooperative pool, never the group.
public struct ServiceGroup: Sendable {
    /// A part reported a failure after the start: the group stopped.
    public struct PartFailed: Error, Sendable, CustomStringConvertible {
        public var failure: PartFailures.Failure
        public var description: String { failure.description }
    }

    /// A part did not stop within the deadline: the group gave up waiting for it and for every
    /// part before it.
    public struct StopOverran: Error, Sendable, CustomStringConvertible {
        /// The part that did not stop.
        public var part: String
        public var deadline: Duration
        /// Why the group was stopping when it is not a shutdown asked for: a part's failure or a
        /// failed start.
        public var cause: (any Error)?

        public var description: String {
            "the \(part) did not stop within \(deadline.components.seconds) s; exiting without stopping it or the parts before it"
        }
    }

    /// How long the stops may take in all: under the unit's `TimeoutStopSec=` (10 s), so that the
    /// process says which part did not stop before systemd's SIGKILL ends it without a word, and
    /// long past a normal stop (the lights off, the history and the last save on an SD card).
    public static let defaultStopDeadline = Duration.seconds(5)

    public let parts: [any ServicePart]
    public let failures: PartFailures
    public let stopDeadline: Duration
    private let clock: any Scheduler

    /// - Parameters:
    ///   - failures: where the parts report a failure after their start.
    ///   - clock: where the stop deadline is timed.
    public init(
        _ parts: [any ServicePart], failures: PartFailures = PartFailures(), stopDeadline: Duration = defaultStopDeadline,
        clock: any Scheduler = QueueScheduler(label: "tictactoe.stop-deadline", qos: .utility)
    ) {
        self.parts = parts
        self.failures = failures
        self.stopDeadline = stopDeadline
        self.clock = clock
    }

    /// Runs the group until `shutdown` returns or a part fails, then stops it.
    public func run(until shutdown: @escaping @Sendable () async -> Void) async throws {
        var started: [any ServicePart] = []
        do {
            for part in parts {
                try await part.start()
                started.append(part)
            }
        } catch {
            try await stop(started, cause: error)
            throw error
        }
        let failure: PartFailures.Failure?
        if let early = failures.first {
            failure = early
        } else {
            failure = await shutdownOrFailure(shutdown)
        }
        try await stop(started, cause: failure.map { PartFailed(failure: $0) })
        if let failure { throw PartFailed(failure: failure) }
    }

    /// Waits for `shutdown` to return or a part to fail, and cancels the other wait.
    private func shutdownOrFailure(_ shutdown: @escaping @Sendable () async -> Void) async -> PartFailures.Failure? {
        let failures = failures
        return await withTaskGroup(of: PartFailures.Failure?.self) { waits in
            waits.addTask {
                await shutdown()
                return nil
            }
            waits.addTask { await failures.wait() }
            let first = await waits.next() ?? nil
            waits.cancelAll()
            return first
        }
    }

    /// Stops `started` in reverse within the deadline, or throws ``StopOverran``.
    private func stop(_ started: [any ServicePart], cause: (any Error)?) async throws(StopOverran) {
        let deadline = clock.now + stopDeadline
        for part in started.reversed() {
            guard await Self.stop(part, before: deadline, on: clock) else {
                throw StopOverran(part: part.name, deadline: stopDeadline, cause: cause)
            }
        }
    }

    /// Whether `part` stopped before `deadline`.
    private static func stop(_ part: any ServicePart, before deadline: MonotonicInstant, on clock: any Scheduler) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let outcome = Protected<CheckedContinuation<Bool, Never>?>(continuation)
            let finish: @Sendable (Bool) -> Void = { stopped in
                let waiting = outcome.withValue { waiting -> CheckedContinuation<Bool, Never>? in
                    defer { waiting = nil }
                    return waiting
                }
                waiting?.resume(returning: stopped)
            }
            let timer = clock.schedule(at: deadline) { finish(false) }
            Task {
                await part.stop()
                timer.dispose()
                finish(true)
            }
        }
    }
}

/// The first failure of a running part: reported by the part, awaited by its ``ServiceGroup``.
///
/// ## Contract
/// - ``report(part:error:)`` may be called from any thread, any number of times: the first
///   report is kept (the cause) and handed to `reported` on the reporting thread before it
///   returns; later ones are consequences and are dropped.
/// - ``first`` is the kept report, `nil` before one; a part (the watchdog) may read it at any
///   time from any thread.
/// - ``wait()`` returns the first report, at once if it came earlier, or `nil` when its task is
///   cancelled. One waiter at a time (the group).
public final class PartFailures: Sendable {
    /// Which part failed, and how.
    public struct Failure: Sendable, CustomStringConvertible {
        public var part: String
        public var error: any Error
        public var description: String { "the \(part) failed: \(error)" }
    }

    private struct State {
        var first: Failure?
        var waiter: CheckedContinuation<Failure?, Never>?
        var cancelled = false
    }

    private let state = Protected(State())
    private let reported: @Sendable (Failure) -> Void

    /// - Parameter reported: told of the first failure (the service logs it).
    public init(reported: @escaping @Sendable (Failure) -> Void = { _ in }) {
        self.reported = reported
    }

    /// The first failure reported, if any.
    public var first: Failure? { state.value.first }

    /// Reports that `part` failed with `error`; only the first report counts.
    public func report(part: String, error: any Error) {
        let failure = Failure(part: part, error: error)
        let (isFirst, waiter) = state.withValue { state -> (Bool, CheckedContinuation<Failure?, Never>?) in
            guard state.first == nil else { return (false, nil) }
            state.first = failure
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        guard isFirst else { return }
        reported(failure)
        waiter?.resume(returning: failure)
    }

    /// The first failure, once there is one; `nil` when the task is cancelled.
    public func wait() async -> Failure? {
        let state = state
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Failure?, Never>) in
                let now = state.withValue { state -> Failure?? in
                    if let first = state.first { return .some(first) }
                    if state.cancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withValue { state -> CheckedContinuation<Failure?, Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
