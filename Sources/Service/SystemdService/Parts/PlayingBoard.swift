import Basics
import BoardConfiguration
import BoardMemory
import GPIO
import Reactive
import WiredBoard

/// The board on its chip: opens the chip, restores the saved game from the board's memory,
/// requests the lines, and at the end switches every LED off and releases the lines.
///
/// ## Contract
/// - ``start()`` opens the chip and reads the state directory (``BoardMemory/inspect(directory:migrating:)``),
///   then builds the ``GameBoard`` (which requests every line or none); only then is the
///   memory opened (``BoardMemory/open(directory:after:)``: the directory made, an unusable
///   database set aside, release 0.4's files imported) and handed to ``Saving``. When any step
///   fails nothing is left requested and the error is thrown.
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
    private let directory: String
    private let saving: Saving
    private let loop: any Scheduler
    private let logger: ServiceLog
    private let failures: PartFailures
    private let running = Protected<(chip: any GPIOChip, board: GameBoard, memory: BoardMemory)?>(nil)
    private let watchingFailures = SerialDisposable()

    /// - Parameters:
    ///   - directory: the state directory, where the board's memory is.
    ///   - failures: where a failure of the lights after the start is reported.
    public init(
        settings: BoardSettings, openChip: @escaping @Sendable () throws -> any GPIOChip, directory: String, saving: Saving,
        loop: any Scheduler, logger: ServiceLog, failures: PartFailures = PartFailures()
    ) {
        self.failures = failures
        self.settings = settings
        self.openChip = openChip
        self.directory = directory
        self.saving = saving
        self.loop = loop
        self.logger = logger
    }

    /// The running board.
    public var board: GameBoard { started.board }

    /// The chip it plays on.
    public var chip: any GPIOChip { started.chip }

    /// The board's memory: its game, scores, learner and finished games.
    public var memory: BoardMemory { started.memory }

    private var started: (chip: any GPIOChip, board: GameBoard, memory: BoardMemory) {
        guard let running = running.value else { fatalError("PlayingBoard: used before start() or after stop()") }
        return running
    }

    public func start() throws {
        let chip = try openChip()
        let finding = try BoardMemory.inspect(directory: directory)
        let board = try GameBoard(chip: chip, settings: settings, scheduler: loop, restoring: finding.snapshot)
        let memory: BoardMemory, notes: [String]
        do {
            (memory, notes) = try BoardMemory.open(directory: directory, after: finding)
        } catch {
            loop.runAndWait { board.shutdown() }
            throw error
        }
        for note in notes { BoardMemory.isRoutine(note) ? logger.notice(note) : logger.error(note) }
        let path = memory.path ?? "memory"
        if let snapshot = finding.snapshot {
            logger.info("restored the saved game from \(path): score \(snapshot.score); \(finding.games) finished games kept")
        } else {
            logger.info("no saved game in \(path); starting fresh")
        }
        saving.begin(memory, restored: finding.snapshot)
        let (failures, name) = (failures, name)
        watchingFailures.inner = board.failures.observeValues { failure in failures.report(part: name, error: failure) }
        running.withValue { $0 = (chip, board, memory) }
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
