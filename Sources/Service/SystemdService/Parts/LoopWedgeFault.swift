#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Reactive

/// A fault for tests only: when a file appears at `trigger`, wedges the game loop for good, so
/// that a test can watch the watchdog restart the service, or a stop meet its deadline. Only
/// tests add it to the group (the appliance's test drop-in sets `TICTACTOE_TEST_FAULTS=1`, which
/// `tictactoe run` and `simulate --serve` read); no other part knows it exists.
///
/// ## Contract
/// - Every `interval` on `clock` from ``start()`` to ``stop()``, looks for `trigger`; when it is
///   there, removes it, logs a warning and schedules an action that never returns on the loop.
public final class LoopWedgeFault: ServicePart {
    public let name = "loop wedge fault"
    private let trigger: String
    private let loop: any Scheduler
    private let clock: any Scheduler
    private let interval: Duration
    private let logger: ServiceLog
    private let watching = SerialDisposable()

    public init(trigger: String, loop: any Scheduler, clock: any Scheduler, interval: Duration, logger: ServiceLog) {
        self.trigger = trigger
        self.loop = loop
        self.clock = clock
        self.interval = interval
        self.logger = logger
    }

    public func start() {
        let (trigger, loop, logger) = (trigger, loop, logger)
        watching.inner = clock.schedule(every: interval) {
            guard FileManager.default.fileExists(atPath: trigger) else { return }
            try? FileManager.default.removeItem(atPath: trigger)
            logger.warning("test fault: wedging the game loop")
            loop.schedule {
                while true { sleep(3600) }
            }
        }
    }

    public func stop() {
        let watching = watching
        clock.runAndWait { watching.dispose() }
    }
}
