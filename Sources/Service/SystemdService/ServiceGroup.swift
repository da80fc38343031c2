import Basics
import Dispatch
import Reactive

/// One part of a running service, brought up by ``start()`` and taken down by ``stop()``.
///
/// The shape is swift-service-lifecycle's (small services in a group that starts them in order
/// and stops them in reverse), with a `start`/`stop` pair instead of one long `run()`: none of
/// the board's parts has a loop of its own to run in the group (the game loop and the servers
/// are threads of their own, the rest are timers and observations), and the process has no
/// task pool beside its threads.
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
    func start() throws
    func stop()
}

/// Parts started in order and stopped in reverse: a part can rely on every part before it.
///
/// ## Contract
/// - ``run(until:whenAsked:)`` blocks the calling thread. It starts the parts one at a time, in
///   order, on that thread; then waits for `shutdown` (a signal, or its ``ShutdownSignal/interrupt()``)
///   or a part's failure (``PartFailures``), whichever comes first; then stops the started parts
///   one at a time in reverse.
/// - When a part's ``ServicePart/start()`` throws, the parts already started are stopped in
///   reverse, no later part is started, `shutdown` is not waited for, and the error is rethrown.
/// - When a part reports a failure before a signal (or during the start), the parts are stopped in
///   reverse, and ``PartFailed`` is thrown: the process ends with a status of its own, and
///   systemd (`Restart=on-failure`) starts it again. The last part stops first: the board
///   service puts its watchdog last, so that no ping follows a failure.
/// - Stopping has a deadline: all the stops together are waited for at most `stopDeadline` on
///   `clock`, measured from the first. A part whose stop has not returned by then is left
///   running, the parts before it are not stopped (they may be what it waits on), and
///   ``StopOverran`` is thrown, naming it, so that the process exits anyway. The stops run on a
///   thread of their own, so a stop that blocks (a `runAndWait` on a wedged game loop) holds
///   that thread, never the group.
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
    private let clock: (any Scheduler)?

    /// - Parameters:
    ///   - failures: where the parts report a failure after their start.
    ///   - clock: where the stop deadline is timed; `nil`, a thread made for the stop, which no
    ///     part's stop can hold up (a test gives a clock in virtual time).
    public init(_ parts: [any ServicePart], failures: PartFailures = PartFailures(), stopDeadline: Duration = defaultStopDeadline, clock: (any Scheduler)? = nil) {
        self.parts = parts
        self.failures = failures
        self.stopDeadline = stopDeadline
        self.clock = clock
    }

    /// Runs the group until `shutdown` catches a signal (handed to `whenAsked` before the stops
    /// begin) or a part fails, then stops it.
    public func run(until shutdown: ShutdownSignal, whenAsked: (Int32) -> Void = { _ in }) throws {
        failures.whenReported { shutdown.interrupt() }
        var started: [any ServicePart] = []
        do {
            for part in parts {
                try part.start()
                started.append(part)
            }
        } catch {
            try stop(started, cause: error)
            throw error
        }
        if failures.first == nil, let signal = shutdown.wait(), failures.first == nil {
            whenAsked(signal)
        }
        let failure = failures.first
        try stop(started, cause: failure.map { PartFailed(failure: $0) })
        if let failure { throw PartFailed(failure: failure) }
    }

    /// Stops `started` in reverse on a thread of its own within the deadline, or throws
    /// ``StopOverran`` naming the part still stopping.
    /// Stops `parts` last first, each once `progress` lets it begin; whether they all stopped.
    private static func stop(_ parts: [any ServicePart], _ progress: StopProgress) -> Bool {
        for part in parts.reversed() {
            guard progress.begin(part.name) else { return false }
            part.stop()
        }
        return true
    }

    private func stop(_ started: [any ServicePart], cause: (any Error)?) throws(StopOverran) {
        guard let first = started.last else { return }
        let progress = StopProgress(first: first.name)
        let (timing, ownClock) = clock.map { ($0, nil) } ?? Self.madeClock()
        let deadline = timing.schedule(at: timing.now + stopDeadline) { progress.expire() }
        defer {
            deadline.dispose()
            ownClock?.stop()
        }
        // The parts are dropped on that thread before it tells: their last reference stays the
        // caller's (PollLoop's order), never a thread still ending when the process exits.
        let held = Locked<[any ServicePart]?>(started)
        LoopThread.start(named: "stopping") {
            if Self.stop(held.withLock { held in defer { held = nil }; return held } ?? [], progress) { progress.finish() }
        }
        if let overran = progress.wait() {
            throw StopOverran(part: overran, deadline: stopDeadline, cause: cause)
        }
    }
}

extension ServiceGroup {
    /// A thread of the stop's own for its deadline, and the same to stop once the stop is over.
    fileprivate static func madeClock() -> (any Scheduler, ThreadScheduler?) {
        let made = ThreadScheduler(named: "stop deadline")
        return (made, made)
    }
}

/// Which part is stopping, and whether the stops finished before the deadline.
private final class StopProgress: Sendable {
    private struct State {
        var stopping: String
        var outcome: Outcome?
    }

    private enum Outcome { case finished, overran(String) }

    private let state: Protected<State>
    private let decided = DispatchSemaphore(value: 0)

    /// - Parameter first: the part to stop first, named if the deadline passes before its stop begins.
    init(first: String) {
        state = Protected(State(stopping: first))
    }

    /// Whether `part` may begin to stop: not once the deadline has passed.
    func begin(_ part: String) -> Bool {
        state.withValue { state in
            guard state.outcome == nil else { return false }
            state.stopping = part
            return true
        }
    }

    func finish() { decide(.finished) }

    func expire() {
        decide(state.withValue { .overran($0.stopping) })
    }

    /// Blocks until the stops finish or the deadline passes; the part that overran, if any.
    func wait() -> String? {
        decided.wait()
        guard case .overran(let part) = state.value.outcome else { return nil }
        return part
    }

    private func decide(_ outcome: Outcome) {
        let first = state.withValue { state -> Bool in
            guard state.outcome == nil else { return false }
            state.outcome = outcome
            return true
        }
        if first { decided.signal() }
    }
}

/// The first failure of a running part: reported by the part, acted on by its ``ServiceGroup``.
///
/// ## Contract
/// - ``report(part:error:)`` may be called from any thread, any number of times: the first
///   report is kept (the cause) and handed to `reported`, then to the group's
///   ``whenReported(_:)``, on the reporting thread before it returns; later ones are
///   consequences and are dropped.
/// - ``first`` is the kept report, `nil` before one; a part (the watchdog) may read it at any
///   time from any thread.
public final class PartFailures: Sendable {
    /// Which part failed, and how.
    public struct Failure: Sendable, CustomStringConvertible {
        public var part: String
        public var error: any Error
        public var description: String { "the \(part) failed: \(error)" }
    }

    private struct State {
        var first: Failure?
        var wake: (@Sendable () -> Void)?
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
        let (isFirst, wake) = state.withValue { state -> (Bool, (@Sendable () -> Void)?) in
            guard state.first == nil else { return (false, nil) }
            state.first = failure
            return (true, state.wake)
        }
        guard isFirst else { return }
        reported(failure)
        wake?()
    }

    /// Has `wake` called on the first failure, at once when it came already. One group.
    public func whenReported(_ wake: @escaping @Sendable () -> Void) {
        let already = state.withValue { state -> Bool in
            state.wake = wake
            return state.first != nil
        }
        if already { wake() }
    }
}
