import Dispatch
import Presentation
import Reactive

/// Writes the game to disk on a thread of its own, so that the game loop, which scans the LEDs
/// at real-time priority, never waits for a slow SD card.
///
/// ## Contract
/// - ``submit(_:)`` never waits for the disk: it leaves the snapshot and returns. A snapshot
///   still waiting when a newer one arrives is replaced: the latest wins, so a slow card costs
///   intermediate states, never the last one.
/// - Snapshots are written one at a time, in the order submitted, each at most once.
/// - ``finish()`` waits until the last snapshot submitted has been written; later submissions
///   are ignored. The service calls it before the process exits.
/// - A failed write is handed to `failed` (on the saver's thread) and the saver carries on.
public final class SnapshotSaver: Sendable {
    private struct State {
        var pending: GameSnapshot?
        var writing = false
        var finished = false
    }

    private let queue = DispatchQueue(label: "tictactoe.saver", qos: .utility)
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
        if startWriting { queue.async { [self] in writePending() } }
    }

    /// Waits until everything submitted has been written, and stops taking snapshots.
    public func finish() {
        state.withValue { $0.finished = true }
        queue.sync {}
    }

    private func writePending() {
        while let snapshot = takePending() {
            do { try save(snapshot) } catch { failed(error) }
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
