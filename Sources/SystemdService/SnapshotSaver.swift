import Basics
import Presentation
import Reactive

/// Writes the game to disk on a thread of its own (a ``SerialWorker``), so that the game loop,
/// which scans the LEDs at real-time priority, never waits for a slow SD card.
///
/// ## Contract
/// - ``submit(_:)`` never waits for the disk: it leaves the snapshot and returns. A snapshot
///   still waiting when a newer one arrives is replaced: the latest wins, so a slow card costs
///   intermediate states, never the last one.
/// - Snapshots are written one at a time, in the order submitted, each at most once; one equal
///   to the last snapshot written is not written again (a card's writes are its wear). After a
///   failed write nothing counts as written, so the next snapshot is written whatever it is.
/// - ``finish()`` waits until the last snapshot submitted has been written; later submissions
///   are ignored. The service calls it before the process exits.
/// - A failed write is handed to `failed` (on the saver's thread) and the saver carries on.
public final class SnapshotSaver: Sendable {
    private struct State {
        var pending: GameSnapshot?
        var lastWritten: GameSnapshot?
        var writing = false
        var finished = false
    }

    private let worker = SerialWorker(named: "saver")
    private let state = Protected(State())
    private let save: @Sendable (GameSnapshot) throws -> Void
    private let failed: @Sendable (any Error) -> Void

    public init(save: @escaping @Sendable (GameSnapshot) throws -> Void, failed: @escaping @Sendable (any Error) -> Void) {
        self.save = save
        self.failed = failed
    }

    /// Leaves `snapshot` to be written, replacing one still waiting.
    public func submit(_ snapshot: GameSnapshot) {
        let startWriting = state.withValue { state -> Bool in
            guard !state.finished else { return false }
            state.pending = snapshot
            defer { state.writing = true }
            return !state.writing
        }
        if startWriting { worker.submit { [self] in writePending() } }
    }

    /// Waits until everything submitted so far has been written (or has failed).
    public func flush() { worker.wait() }

    /// Waits until everything submitted has been written, and stops taking snapshots.
    public func finish() {
        state.withValue { $0.finished = true }
        worker.wait()
    }

    private func writePending() {
        while let snapshot = takePending() {
            guard snapshot != state.withValue({ $0.lastWritten }) else { continue }
            do {
                try save(snapshot)
                state.withValue { $0.lastWritten = snapshot }
            } catch {
                state.withValue { $0.lastWritten = nil }
                failed(error)
            }
        }
    }

    private func takePending() -> GameSnapshot? {
        state.withValue { state in
            defer { state.pending = nil }
            if state.pending == nil { state.writing = false }
            return state.pending
        }
    }
}
