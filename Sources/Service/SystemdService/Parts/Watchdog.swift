import Reactive

/// Pings systemd's watchdog while the game loop is alive and the buttons are read.
///
/// ## Contract
/// - From ``start()`` on, every `interval` on `clock` (half systemd's watchdog interval), one
///   `WATCHDOG=1`, but only while the game loop answers a ``LoopHeartbeat`` (an action
///   scheduled on the loop since the last ping has run) and the button reader still listens:
///   a wedged loop stops the pings, and systemd restarts the service. A dark board, which
///   schedules nothing of its own, still answers.
/// - No ping once a part has reported a failure (`failures`): from that moment the service is
///   stopping, and a broken board is never reported alive. It is the last part of the group,
///   so it also stops first.
/// - ``stop()`` cancels the pings on `clock` itself, so that no ping is under way or follows
///   when it returns (before ``Readiness`` sends `STOPPING=1`).
public final class Watchdog: ServicePart {
    public let name = "watchdog"
    private let board: PlayingBoard
    private let loop: any Scheduler
    private let clock: any Scheduler
    private let interval: Duration
    private let notifier: Notifier
    private let logger: ServiceLog
    private let failures: PartFailures
    private let pinging = SerialDisposable()

    public init(
        board: PlayingBoard, loop: any Scheduler, clock: any Scheduler, interval: Duration, notifier: Notifier,
        logger: ServiceLog, failures: PartFailures = PartFailures()
    ) {
        self.failures = failures
        self.board = board
        self.loop = loop
        self.clock = clock
        self.interval = interval
        self.notifier = notifier
        self.logger = logger
    }

    public func start() {
        let (board, notifier, logger, failures) = (board.board, notifier, logger, failures)
        let heartbeat = LoopHeartbeat(loop: loop)
        pinging.inner = clock.schedule(every: interval) {
            // Said once, by whoever reported the failure; the service is stopping.
            guard failures.first == nil else { return }
            if heartbeat.check() && board.isListening {
                notifier.watchdog()
            } else {
                logger.warning("game loop made no progress (or the buttons stopped being read); withholding the watchdog ping")
            }
        }
    }

    public func stop() {
        let pinging = pinging
        clock.runAndWait { pinging.dispose() }
    }
}
