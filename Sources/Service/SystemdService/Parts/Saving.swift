import Basics
import BoardAPI
import Reactive

/// Writes the game to the state store off the game loop (a ``SnapshotSaver``), with the
/// finished games of the history before the state that names them, and finishes the last write
/// before the service ends.
///
/// It comes first in the group so that it stops last: the final snapshot, handed over by
/// ``Autosave`` while the board stops, is on disk before the process exits.
///
/// ## Contract
/// - ``start()`` does nothing: the writer starts with the first snapshot.
/// - ``stop()`` returns once every snapshot submitted has been written (or has failed);
///   later submissions are ignored.
/// - A failed save leaves the last good file as it was, and the next change tries again. The
///   first failure of each kind is logged as an error, and the first save that works after
///   failures as a notice (``RepeatedFailures``): a card that stays full or read-only costs two
///   lines in the journal, not one per move.
public struct Saving: ServicePart {
    public let name = "saving"
    public let saver: SnapshotSaver
    private let written: Protected<BoardAPIServer.SavesWritten>

    /// Saving to `store`, with failures logged.
    public init(store: StateStore, logger: ServiceLog) {
        let written = Protected(BoardAPIServer.SavesWritten())
        let failures = Protected(RepeatedFailures())
        self.init(
            saver: SnapshotSaver(
                save: { snapshot, lastGame in
                    try store.save(snapshot, lastGame: lastGame)
                    written.withValue { $0 = BoardAPIServer.SavesWritten(count: $0.count + 1, last: WallTime.now()) }
                    if let count = failures.withValue({ $0.succeeded() }) {
                        logger.notice("saving the game works again, after \(count) failed \(count == 1 ? "save" : "saves")")
                    }
                },
                failed: { error in
                    guard failures.withValue({ $0.failed(kind: (error as? StoreError)?.code) }) else { return }
                    logger.error("saving the game failed: \(error); play goes on and every change tries again (said once while it fails this way)")
                }),
            written: written)
    }

    public init(saver: SnapshotSaver) {
        self.init(saver: saver, written: Protected(BoardAPIServer.SavesWritten()))
    }

    private init(saver: SnapshotSaver, written: Protected<BoardAPIServer.SavesWritten>) {
        self.saver = saver
        self.written = written
    }

    /// The saves written (on disk) since the service started, and when the last was.
    public var saves: BoardAPIServer.SavesWritten { written.value }

    public func start() {}

    public func stop() { saver.finish() }
}
