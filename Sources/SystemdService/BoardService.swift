import BoardConfiguration
import WiredBoard
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GPIO
import Presentation
import Reactive

/// The board as a long-running service: starts the game on a chip, carries on from the saved
/// state, saves every change, tells systemd it is ready and alive, and shuts down cleanly.
///
/// ## Contract
/// - Nothing is created or moved before the chip is open, the lines are requested and the saved
///   game is read: then the state directory is made, and an unusable state file set aside.
/// - `READY=1` is sent once the lines are requested, the saved game restored and the first
///   frame written out to the chip in full (``LEDMatrix/framesWritten``; not a guess of time).
/// - `WATCHDOG=1` is sent every ping interval on the watchdog's clock (half systemd's watchdog
///   interval), and none after `STOPPING=1`, but only while the game loop answers a
///   ``LoopHeartbeat`` (an action scheduled on the loop since the last ping has run) and the
///   button reader is still listening: a wedged loop stops the pings, and systemd restarts the
///   service. A dark board, which schedules nothing of its own, still answers.
/// - Every change of game, next starter or score goes to a ``SnapshotSaver``, which writes it
///   atomically on a thread of its own: the game loop never touches a file.
/// - On graceful shutdown (when `shutdown` returns: SIGTERM or SIGINT in the service):
///   `STOPPING=1`, then every LED off and every line released, on the game loop itself so no
///   scan step follows, then the last snapshot written before `run` returns. However else the
///   process ends, the unit's `ExecStopPost=` (`tictactoe lights-off`) switches the LEDs off.
public struct BoardService: Sendable {
    public let configuration: Configuration
    private let openChip: @Sendable () throws -> any GPIOChip
    private let store: StateStore
    private let notifier: Notifier
    private let logger: ServiceLog
    private let testFaults: Bool
    private let realtimePriority: Int32
    private let loop: ThreadScheduler
    private let watchdogClock: any Scheduler
    private let pingInterval: Duration

    /// - Parameters:
    ///   - openChip: opens the chip the configuration names.
    ///   - notifier: systemd's notification socket, or a stand-in.
    ///   - realtimePriority: `SCHED_FIFO` priority asked for the game loop; 0 for none.
    ///   - loop: the game loop; ``run(until:)`` stops it when it returns.
    ///   - watchdogClock: where the watchdog pings are timed, every `pingInterval` (half of
    ///     systemd's `WATCHDOG_USEC`, else a second).
    ///   - testFaults: honour the test-only fault switch (a `wedge-loop` file in the state
    ///     directory wedges the game loop once). Never set outside tests.
    public init(
        configuration: Configuration, openChip: @escaping @Sendable () throws -> any GPIOChip, store: StateStore,
        notifier: Notifier = Notifier(), logger: ServiceLog, realtimePriority: Int32 = 10,
        loop: ThreadScheduler = ThreadScheduler(),
        watchdogClock: any Scheduler = QueueScheduler(label: "tictactoe.watchdog", qos: .utility),
        pingInterval: Duration = Notifier.watchdogInterval().map { $0 / 2 } ?? .seconds(1),
        testFaults: Bool = false
    ) {
        self.loop = loop
        self.watchdogClock = watchdogClock
        self.pingInterval = pingInterval
        self.realtimePriority = realtimePriority
        self.configuration = configuration
        self.openChip = openChip
        self.store = store
        self.notifier = notifier
        self.logger = logger
        self.testFaults = testFaults
    }

    /// Plays until `shutdown` returns (``ShutdownSignal/wait(for:)`` in the service), then stops
    /// gracefully. Throws when the chip or its lines cannot be had.
    public func run(until shutdown: @escaping @Sendable () async -> Void) async throws {
        let settings = configuration.settings
        let scheduler = loop
        defer { scheduler.stop() }
        if realtimePriority == 0 {
            logger.info("game loop runs at normal priority, as asked")
        } else if let refusal = scheduler.requestRealtimePriority(realtimePriority) {
            logger.warning("real-time scheduling for the game loop refused (\(refusal)); scanning at normal priority")
        } else {
            logger.info("game loop runs with real-time priority (SCHED_FIFO \(realtimePriority))")
        }

        // Nothing is created or moved until the chip, its lines and the saved game are known good.
        let chip = try openChip()
        let saved = store.load()
        let board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler, restoring: saved.snapshot)
        do {
            try store.prepare()
        } catch {
            scheduler.runAndWait { board.shutdown() }
            throw error
        }
        switch saved {
        case .restored(let snapshot):
            logger.info("restored the saved game from \(store.path): score \(snapshot.score)")
        case .fresh:
            logger.info("no saved game at \(store.path); starting fresh")
        case .unusable(let problem):
            logger.error("\(problem); moved it to \(store.setAside()) and started fresh")
        }

        let logger = self.logger
        let store = self.store
        let saver = SnapshotSaver(save: { try store.save($0) }, failed: { error in logger.error("saving the game failed: \(error)") })
        // Subscribed before the scan starts, so the first frame written cannot be missed.
        let firstFrame = FirstEvent(of: Signal.merge(board.matrix.framesWritten, board.failures.map(value: ())))
        let observations = Self.serve(board, saver: saver, logger: logger, loop: scheduler)

        board.start()
        await firstFrame.value()
        notifier.ready(status: "playing on \(chip.name) [\(chip.label)]")
        logger.info("ready on \(chip.name) [\(chip.label)]; \(board.viewModel.names.matchTitle)")

        let testFaults = self.testFaults
        let notifier = self.notifier
        let service = self
        let heartbeat = LoopHeartbeat(loop: scheduler)
        let pinging = watchdogClock.schedule(every: pingInterval) {
            if heartbeat.check() && board.isListening {
                notifier.watchdog()
            } else {
                logger.warning("game loop made no progress (or the buttons stopped being read); withholding the watchdog ping")
            }
            if testFaults { service.wedgeIfAsked(scheduler) }
        }
        await shutdown()
        // On the watchdog's clock, so that no ping is under way or follows STOPPING=1.
        watchdogClock.runAndWait { pinging.dispose() }

        notifier.stopping()
        logger.info("stopping: switching every LED off and releasing the lines")
        scheduler.runAndWait {
            observations.dispose()
            saver.submit(board.viewModel.snapshot.value)
            board.shutdown()
        }
        saver.finish()
        logger.info("stopped")
    }

    /// What the service does with a running board besides showing it: logs its events (and,
    /// at debug level, every edge, press and release), hands every new snapshot to `saver`, and
    /// reports LED write errors. Runs on the board's loop; dispose the result on the loop.
    static func serve(_ board: GameBoard, saver: SnapshotSaver, logger: ServiceLog, loop: any Scheduler) -> any Disposable {
        let observations = CompositeDisposable()
        observations += board.viewModel.events.observeValues { event in
            let text = event.text(players: board.viewModel.names)
            if !text.isEmpty { logger.info("\(text)") }
        }
        // One input changes the snapshot at most once; the saver writes off the loop.
        observations += board.viewModel.snapshot.signal.observeValues { saver.submit($0) }
        if logger.level <= .debug {
            observations += board.pad.edges.observeValues { edge in
                logger.debug("edge \(edge.offset) \(edge.edge) stamped \(edge.timestamp), handled at \(loop.now)")
            }
            for (index, button) in board.pad.cells.enumerated() {
                observations += button.presses.observeValues { time in logger.debug("cell \(index) pressed at \(time)") }
                observations += button.releases.observeValues { time in logger.debug("cell \(index) released at \(time)") }
            }
        }
        observations += board.failures.observeValues { error in
            logger.critical("LED output failed: \(error)")
        }
        return observations
    }

    private func wedgeIfAsked(_ scheduler: ThreadScheduler) {
        let trigger = store.directory + "/wedge-loop"
        guard FileManager.default.fileExists(atPath: trigger) else { return }
        try? FileManager.default.removeItem(atPath: trigger)
        logger.warning("test fault: wedging the game loop")
        scheduler.schedule {
            while true { sleep(3600) }
        }
    }
}

extension BoardService: CustomStringConvertible {
    public var description: String { "BoardService(state: \(store.path))" }
}

/// The first event of a signal, awaited: subscribes at once, so an event sent before the wait
/// begins is not lost.
private final class FirstEvent: Sendable {
    private struct State {
        var arrived = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Protected(State())
    private let observation = Protected<(any Disposable)?>(nil)

    init(of signal: Signal<Void>) {
        let state = state
        let disposable = signal.observe(Observer<Void> { (_: Event<Void>) in
            let waiter = state.withValue { state -> CheckedContinuation<Void, Never>? in
                guard !state.arrived else { return nil }
                state.arrived = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        })
        observation.withValue { $0 = disposable }
    }

    func value() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let arrived = state.withValue { state -> Bool in
                if !state.arrived { state.waiter = waiter }
                return state.arrived
            }
            if arrived { waiter.resume() }
        }
        observation.value?.dispose()
    }
}
