import Basics
import BoardConfiguration
import GPIO
import Reactive

/// The board as a long-running service: the game on a chip, carried on from the saved state,
/// every change saved, systemd told it is ready and alive, and a clean shutdown.
///
/// It is a ``ServiceGroup`` of small parts, started in this order and stopped in reverse:
///
/// | part | starts | stops |
/// | --- | --- | --- |
/// | ``APISocket`` | the API's socket had (systemd's, or made), before anything is touched | a socket never handed over closed |
/// | ``Saving`` | — | the last snapshot committed |
/// | ``GameLoop`` | real-time priority asked | the loop's thread ended |
/// | ``PlayingBoard`` | chip opened, saved game read, lines requested, the board's memory opened | LEDs off, lines released |
/// | ``Autosave`` | every new snapshot and finished game handed to saving | the final snapshot handed over |
/// | ``EventLog`` | game events logged | logging ended |
/// | ``LocalAPI`` | the API served on its socket | clients closed |
/// | ``Readiness`` | board started; `READY=1` after its first frame | `STOPPING=1` |
/// | ``Watchdog`` | `WATCHDOG=1` while the loop answers | pings ended |
///
/// with any `extraParts` (a test's faults) just before the watchdog, which comes last so that
/// it stops first. Each part's contract is in its own doc comment.
///
/// ## Contract
/// - ``run(until:)`` blocks the calling thread: it plays until `shutdown` catches a signal (or is
///   interrupted), or until a part fails after the start (the
///   LED lines failing for good): the failure is logged (critical) as it is reported, no
///   watchdog ping follows it, the parts stop in reverse, and ``ServiceGroup/PartFailed`` is
///   thrown, for an exit status that makes systemd start the board again.
/// - Stopping takes at most `stopDeadline` on `stopClock`; past it, the part that did not stop
///   is logged (critical) and ``ServiceGroup/StopOverran`` thrown, so that the process exits
///   anyway (`ExecStopPost=` then switches the LEDs off).
/// - Threads: the caller's (starts, the wait), the game loop, the service clock, the API's loop,
///   the saver while it writes, the libgpiod reader on a real
///   chip, and while the service stops, one for the stops and one for their deadline. No task pool and no
///   Dispatch queue: each thread runs one loop of its own, named as `top -H` shows it.
/// However the process ends, the unit's `ExecStopPost=` (`tictactoe lights-off`) switches the
/// LEDs off as well.
public struct BoardService: Sendable {
    public let configuration: Configuration
    private let openChip: @Sendable () throws -> any GPIOChip
    private let stateDirectory: String
    private let notifier: Notifier
    private let logger: ServiceLog
    private let extraParts: @Sendable (PlayingBoard, any Scheduler) -> [any ServicePart]
    private let realtimePriority: Int32
    private let loop: ThreadScheduler
    private let clock: (any Scheduler)?
    private let stopClock: (any Scheduler)?
    private let pingInterval: Duration
    private let apiSocket: @Sendable () throws -> APIListener?
    private let program: String
    private let stopDeadline: Duration

    /// - Parameters:
    ///   - openChip: opens the chip the configuration names.
    ///   - notifier: systemd's notification socket, or a stand-in.
    ///   - realtimePriority: `SCHED_FIFO` priority asked for the game loop; 0 for none.
    ///   - loop: the game loop; ``run(until:)`` stops it when it returns.
    ///   - clock: the service's clock, a thread other than the game loop's: the watchdog's pings,
    ///     every `pingInterval` (half of systemd's `WATCHDOG_USEC`, else a second). `nil`: a
    ///     thread of the service's own, ended by ``run(until:)``.
    ///   - stopClock: where the stop's deadline, `stopDeadline`, is timed; `nil`: a thread made
    ///     for the stop (``ServiceGroup``), which no part's stop can hold up.
    ///   - apiSocket: the board's API's listening socket (systemd's, or one made at a path) and
    ///     its name for the log; `nil` serves no API.
    ///   - program: "tictactoe" and ``ProgramVersion/current``, for the API's hello.
    ///   - extraParts: parts added before the watchdog, given the board and the clock (a test's faults).
    public init(
        configuration: Configuration, openChip: @escaping @Sendable () throws -> any GPIOChip, stateDirectory: String,
        notifier: Notifier = Notifier(), logger: ServiceLog, realtimePriority: Int32 = 10,
        loop: ThreadScheduler = ThreadScheduler(named: "game loop"), clock: (any Scheduler)? = nil,
        pingInterval: Duration = Notifier.watchdogInterval().map { $0 / 2 } ?? .seconds(1),
        apiSocket: @escaping @Sendable () throws -> APIListener? = { nil }, program: String = "tictactoe",
        extraParts: @escaping @Sendable (PlayingBoard, _ clock: any Scheduler) -> [any ServicePart] = { _, _ in [] },
        stopClock: (any Scheduler)? = nil, stopDeadline: Duration = ServiceGroup.defaultStopDeadline
    ) {
        self.stopClock = stopClock
        self.stopDeadline = stopDeadline
        self.loop = loop
        self.clock = clock
        self.pingInterval = pingInterval
        self.realtimePriority = realtimePriority
        self.configuration = configuration
        self.openChip = openChip
        self.stateDirectory = stateDirectory
        self.notifier = notifier
        self.logger = logger
        self.extraParts = extraParts
        self.apiSocket = apiSocket
        self.program = program
    }

    /// The parts, in the order they start; those that can fail after the start report to
    /// `failures`, which the watchdog heeds.
    func parts(reportingTo failures: PartFailures, clock: any Scheduler) -> [any ServicePart] {
        let socket = APISocket(make: apiSocket)
        let saving = Saving(logger: logger)
        let board = PlayingBoard(
            settings: configuration.settings, openChip: openChip, directory: stateDirectory, saving: saving, loop: loop, logger: logger,
            failures: failures)
        return [
            socket,
            saving,
            GameLoop(scheduler: loop, realtimePriority: realtimePriority, logger: logger),
            board,
            Autosave(board: board, saving: saving, loop: loop),
            EventLog(board: board, loop: loop, logger: logger),
            LocalAPI(
                board: board, saving: saving, socket: { socket.take() }, loop: loop, program: program, logger: logger),
            Readiness(board: board, notifier: notifier, logger: logger),
        ] + extraParts(board, clock) + [
            Watchdog(
                board: board, loop: loop, clock: clock, interval: pingInterval, notifier: notifier, logger: logger,
                failures: failures),
        ]
    }

    /// Plays until `shutdown` catches a signal (logged) or is interrupted, then stops gracefully.
    /// Throws when the chip or its lines cannot be had, having started nothing that is still
    /// running; when a part fails after the start; when the stop overruns.
    public func run(until shutdown: ShutdownSignal) throws {
        let (loop, logger) = (self.loop, self.logger)
        let clock = self.clock ?? ThreadScheduler(named: "service clock")
        defer {
            loop.stop()
            // The clock made here ends here; a clock given is its giver's.
            if self.clock == nil { (clock as? ThreadScheduler)?.stop() }
        }
        let failures = PartFailures { failure in
            logger.critical("stopping, so that systemd starts the board again: \(failure)")
        }
        let group = ServiceGroup(parts(reportingTo: failures, clock: clock), failures: failures, stopDeadline: stopDeadline, clock: stopClock)
        do {
            try group.run(until: shutdown) { signal in logger.info("\(ShutdownSignal.name(of: signal)): shutting down") }
        } catch let overran as ServiceGroup.StopOverran {
            logger.critical("\(overran)")
            throw overran
        } catch let failed as ServiceGroup.PartFailed {
            logger.error("stopped after the \(failed.failure.part) failed")
            throw failed
        }
        logger.info("stopped")
    }
}

extension BoardService: CustomStringConvertible {
    public var description: String { "BoardService(state: \(stateDirectory))" }
}
