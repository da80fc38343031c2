import Reactive

/// The game loop: the one thread the devices and the view model run on, at real-time priority
/// when the system grants it, so that the LED scan keeps its rhythm on a busy Pi.
///
/// ## Contract
/// - ``start()`` asks for `SCHED_FIFO` at `realtimePriority` (0: normal scheduling, as asked)
///   and logs what it got; a refusal is a warning, never a failure.
/// - ``stop()`` stops the thread: no action of the loop runs after it. Every part that touches
///   the board comes after this one in the group, so it stops first.
public struct GameLoop: ServicePart {
    public let name = "game loop"
    public let scheduler: ThreadScheduler
    let realtimePriority: Int32
    let logger: ServiceLog

    public init(scheduler: ThreadScheduler, realtimePriority: Int32, logger: ServiceLog) {
        self.scheduler = scheduler
        self.realtimePriority = realtimePriority
        self.logger = logger
    }

    public func start() {
        if realtimePriority == 0 {
            logger.info("game loop runs at normal priority, as asked")
        } else if let refusal = scheduler.requestRealtimePriority(realtimePriority) {
            logger.warning("real-time scheduling for the game loop refused (\(refusal)); scanning at normal priority")
        } else {
            logger.info("game loop runs with real-time priority (SCHED_FIFO \(realtimePriority))")
        }
    }

    public func stop() { scheduler.stop() }
}
