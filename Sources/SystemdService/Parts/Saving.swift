/// Writes the game to the state store off the game loop (a ``SnapshotSaver``), and finishes the
/// last write before the service ends.
///
/// It comes first in the group so that it stops last: the final snapshot, handed over by
/// ``Autosave`` while the board stops, is on disk before the process exits.
///
/// ## Contract
/// - ``start()`` does nothing: the writer starts with the first snapshot.
/// - ``stop()`` returns once every snapshot submitted has been written (or its failure logged);
///   later submissions are ignored.
public struct Saving: ServicePart {
    public let name = "saving"
    public let saver: SnapshotSaver

    /// Saving to `store`, with failures logged.
    public init(store: StateStore, logger: ServiceLog) {
        self.init(saver: SnapshotSaver(
            save: { try store.save($0) },
            failed: { error in logger.error("saving the game failed: \(error)") }))
    }

    public init(saver: SnapshotSaver) {
        self.saver = saver
    }

    public func start() async {}

    public func stop() async { saver.finish() }
}
