import Basics
import BoardConfiguration
import GPIO
import Reactive
import WiredBoard

/// The board on its chip: opens the chip, restores the saved game, requests the lines, and at
/// the end switches every LED off and releases the lines.
///
/// ## Contract
/// - ``start()`` opens the chip and reads the saved game, then builds the ``GameBoard`` (which
///   requests every line or none); only then is the state directory made, what a save cut
///   short left removed and an unusable state file set aside (one that cannot be set aside is
///   kept, and the store then refuses to save over it). When any step fails nothing is left requested and the error is thrown.
///   The board is built but not started: ``Readiness`` starts it once every observer is in place.
/// - ``board`` and ``chip`` may be used from ``start()``'s return until ``stop()``.
/// - From ``start()`` to ``stop()``, a persistent failure of the LED lines
///   (``GameBoard/failures``: writes failing for half a second, not one `EAGAIN`) is reported
///   to `failures`, once, as this part's: the group then stops the service with a status of its
///   own, and systemd starts it again, rather than a dark board's watchdog pinging on.
/// - ``stop()`` runs ``GameBoard/shutdown()`` on the game loop, so no scan step follows it.
public final class PlayingBoard: ServicePart {
    public let name = "board"
    private let settings: BoardSettings
    private let openChip: @Sendable () throws -> any GPIOChip
    private let store: StateStore
    private let loop: any Scheduler
    private let logger: ServiceLog
    private let failures: PartFailures
    private let running = Protected<(chip: any GPIOChip, board: GameBoard, lastGame: Int?)?>(nil)
    private let watchingFailures = SerialDisposable()

    /// - Parameter failures: where a failure of the lights after the start is reported.
    public init(
        settings: BoardSettings, openChip: @escaping @Sendable () throws -> any GPIOChip, store: StateStore,
        loop: any Scheduler, logger: ServiceLog, failures: PartFailures = PartFailures()
    ) {
        self.failures = failures
        self.settings = settings
        self.openChip = openChip
        self.store = store
        self.loop = loop
        self.logger = logger
    }

    /// The running board.
    public var board: GameBoard { started.board }

    /// The chip it plays on.
    public var chip: any GPIOChip { started.chip }

    /// The last finished game the restored state names (``StateStore/save(_:lastGame:)``).
    public var lastGame: Int? { started.lastGame }

    private var started: (chip: any GPIOChip, board: GameBoard, lastGame: Int?) {
        guard let running = running.value else { fatalError("PlayingBoard: used before start() or after stop()") }
        return running
    }

    public func start() throws {
        let chip = try openChip()
        let (saved, lastGame) = store.loadNamingGame()
        let board = try GameBoard(chip: chip, settings: settings, scheduler: loop, restoring: saved.snapshot)
        let leftovers: [String]
        do {
            leftovers = try store.prepare()
        } catch {
            loop.runAndWait { board.shutdown() }
            throw error
        }
        for leftover in leftovers { logger.info("removed \(leftover.shownPath), left by a save that a crash or power cut interrupted") }
        switch saved {
        case .restored(let snapshot):
            logger.info("restored the saved game from \(store.path): score \(snapshot.score)")
        case .fresh:
            logger.info("no saved game at \(store.path); starting fresh")
        case .unusable(let problem):
            do throws(StoreError) {
                let aside = try store.setAside()
                logger.error("\(problem); moved it to \(aside) and started fresh")
            } catch {
                logger.error("""
                    \(problem); it could not be moved aside (\(error.reason)), so the board keeps it as it is and plays a fresh \
                    game WITHOUT SAVING: move it away (or remove it, once looked at) and restart the board
                    """)
            }
        }
        let (failures, name) = (failures, name)
        watchingFailures.inner = board.failures.observeValues { failure in failures.report(part: name, error: failure) }
        running.withValue { $0 = (chip, board, lastGame) }
    }

    public func stop() {
        guard let board = running.value?.board else { return }
        logger.info("switching every LED off and releasing the lines")
        let watchingFailures = watchingFailures
        loop.runAndWait {
            watchingFailures.dispose()
            board.shutdown()
        }
        running.withValue { $0 = nil }
    }
}
