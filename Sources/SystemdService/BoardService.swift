import Appliance
import BoardConfiguration
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
/// - `READY=1` is sent once the lines are requested, the saved game restored and the first full
///   frame scanned out.
/// - `WATCHDOG=1` is sent every half watchdog interval, but only while the game loop answers a
///   ``LoopHeartbeat`` (an action scheduled on the loop since the last ping has run) and the
///   button reader is still listening: a wedged loop stops the pings, and systemd restarts the
///   service. A dark board, which schedules nothing of its own, still answers.
/// - Every change of game, next starter or score is written to the ``StateStore`` atomically, at
///   most once per turn of the game loop.
/// - On graceful shutdown (when `shutdown` returns: SIGTERM or SIGINT in the service): `STOPPING=1`, then every
///   LED off and every line released, on the game loop itself so no scan step follows.
public struct BoardService: Sendable {
    public let configuration: Configuration
    private let openChip: @Sendable () throws -> any GPIOChip
    private let store: StateStore
    private let notifier: Notifier
    private let logger: ServiceLog
    private let testFaults: Bool
    private let realtimePriority: Int32

    /// - Parameters:
    ///   - openChip: opens the chip the configuration names.
    ///   - realtimePriority: `SCHED_FIFO` priority asked for the game loop; 0 for none.
    ///   - testFaults: honour the test-only fault switch (a `wedge-loop` file in the state
    ///     directory wedges the game loop once). Never set outside tests.
    public init(
        configuration: Configuration, openChip: @escaping @Sendable () throws -> any GPIOChip, store: StateStore,
        notifier: Notifier = Notifier(), logger: ServiceLog, realtimePriority: Int32 = 10, testFaults: Bool = false
    ) {
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
        let scheduler = ThreadScheduler()
        defer { scheduler.stop() }
        if realtimePriority == 0 {
            logger.info("game loop runs at normal priority, as asked")
        } else if let refusal = scheduler.requestRealtimePriority(realtimePriority) {
            logger.warning("real-time scheduling for the game loop refused (\(refusal)); scanning at normal priority")
        } else {
            logger.info("game loop runs with real-time priority (SCHED_FIFO \(realtimePriority))")
        }

        let snapshot: GameSnapshot?
        switch store.load() {
        case .restored(let saved):
            snapshot = saved
            logger.info("restored the saved game from \(store.path): score \(saved.score)")
        case .fresh:
            snapshot = nil
            logger.info("no saved game at \(store.path); starting fresh")
        case .setAside(let problem, let aside):
            snapshot = nil
            logger.error("\(problem); moved it to \(aside) and started fresh")
        }

        let chip = try openChip()
        let board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler, restoring: snapshot)
        let players = settings.players
        let logger = self.logger
        let store = self.store
        let saving = SaveCoalescer()
        let observations = CompositeDisposable()
        observations += board.viewModel.events.observeValues { event in
            let text = event.text(players: players)
            if !text.isEmpty { logger.info("\(text)") }
        }
        let snapshots = board.viewModel.snapshot
        observations += snapshots.signal.observeValues { _ in
            // Many properties change in one step; save once, after the step, the final state.
            guard saving.begin() else { return }
            scheduler.schedule {
                saving.end()
                do { try store.save(snapshots.value) } catch { logger.error("saving the game failed: \(error)") }
            }
        }
        if logger.level <= .debug {
            observations += board.pad.edges.observeValues { edge in
                logger.debug("edge \(edge.offset) \(edge.edge) stamped \(edge.timestamp), handled at \(scheduler.now)")
            }
            for (index, button) in board.pad.cells.enumerated() {
                observations += button.presses.observeValues { time in logger.debug("cell \(index) pressed at \(time)") }
                observations += button.releases.observeValues { time in logger.debug("cell \(index) released at \(time)") }
            }
        }
        observations += board.failures.observeValues { error in
            logger.critical("LED output failed: \(error)")
        }

        board.start()
        try await Task.sleep(for: settings.scanRowPeriod * 6)
        notifier.ready(status: "playing on \(chip.name) [\(chip.label)]")
        logger.info("ready on \(chip.name) [\(chip.label)]; \(players.matchTitle)")

        let interval = Notifier.watchdogInterval().map { $0 / 2 } ?? .seconds(1)
        let testFaults = self.testFaults
        let notifier = self.notifier
        let service = self
        let heartbeat = LoopHeartbeat(loop: scheduler)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: interval) } catch { return }
                    if heartbeat.check() && board.isListening {
                        notifier.watchdog()
                    } else {
                        logger.warning("game loop made no progress (or the buttons stopped being read); withholding the watchdog ping")
                    }
                    if testFaults { service.wedgeIfAsked(scheduler) }
                }
            }
            await shutdown()
            group.cancelAll()
        }

        notifier.stopping()
        logger.info("stopping: switching every LED off and releasing the lines")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            scheduler.schedule {
                observations.dispose()
                try? store.save(snapshots.value)
                board.shutdown()
                done.resume()
            }
        }
        logger.info("stopped")
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

/// Lets one save be pending at a time.
private final class SaveCoalescer: Sendable {
    private let pending = Protected(false)

    func begin() -> Bool {
        pending.withValue { pending in
            defer { pending = true }
            return !pending
        }
    }

    func end() { pending.withValue { $0 = false } }
}
