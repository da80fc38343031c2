import Basics
import BoardAPI
import BoardMemory
import Reactive
import ViewModel

/// Writes the board's memory off the game loop (a ``Saver``), and finishes the last write
/// before the service ends.
///
/// It comes first in the group so that it stops last: the final snapshot, handed over by
/// ``Autosave`` while the board stops, is on disk before the process exits.
///
/// ## Contract
/// - ``start()`` does nothing: the saver is made by ``begin(_:)``, once the board's part has
///   opened the memory.
/// - ``stop()`` returns once everything submitted has been committed (or has failed), and the
///   database closed; later submissions are ignored.
/// - A failed commit leaves the database as it was, and the next change tries again. The first
///   failure of each kind is logged as an error, and the first commit that works after failures
///   as a notice (``RepeatedFailures``): a card that stays full or read-only costs two lines in
///   the journal, not one per move.
public final class Saving: ServicePart {
    public let name = "saving"
    private let logger: ServiceLog
    private let written = Protected(BoardAPIServer.SavesWritten())
    private let current = Protected<(saver: Saver, memory: BoardMemory)?>(nil)
    private let commit: (@Sendable (BoardMemory) -> Saver.Commit)?

    /// - Parameter commit: how the memory's commits are made; `nil`: ``BoardMemory/commit(_:games:)``
    ///   (a test's seam: a card that stalls).
    public init(logger: ServiceLog, commit: (@Sendable (BoardMemory) -> Saver.Commit)? = nil) {
        self.logger = logger
        self.commit = commit
    }

    /// Starts saving to `memory`, which holds `restored` already.
    @discardableResult
    public func begin(_ memory: BoardMemory, restored: GameSnapshot? = nil) -> Saver {
        let (written, logger) = (written, logger)
        let failures = Protected(RepeatedFailures())
        let saver = Saver(
            commit: commit?(memory) ?? Saver.committing(to: memory), restored: restored,
            committed: {
                written.withValue { $0 = BoardAPIServer.SavesWritten(count: $0.count + 1, last: WallTime.now()) }
                if let count = failures.withValue({ $0.succeeded() }) {
                    logger.notice("saving the game works again, after \(count) failed \(count == 1 ? "save" : "saves")")
                }
            },
            failed: { failure in
                // Not a save that failed, and not tried again: said each time, as what it is.
                if case .gameRefused = failure {
                    logger.error("\(failure)")
                    return
                }
                guard failures.withValue({ $0.failed(kind: failure.kind) }) else { return }
                logger.error("saving the game failed: \(failure); play goes on and every change tries again (said once while it fails this way)")
            })
        current.withValue { $0 = (saver, memory) }
        return saver
    }

    /// The saver, from the board's start on.
    public var saver: Saver {
        guard let saver = current.value?.saver else { fatalError("Saving: used before the board's part began it") }
        return saver
    }

    /// The commits written since the service started, and when the last was.
    public var saves: BoardAPIServer.SavesWritten { written.value }

    public func start() {}

    /// Finishes the last commit, then closes the database (its log checkpointed and removed).
    public func stop() {
        guard let (saver, memory) = current.value else { return }
        saver.finish()
        memory.close()
    }
}
