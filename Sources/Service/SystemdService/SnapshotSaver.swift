import Basics
import BoardAPI
import ViewModel
import Reactive

/// Writes the game to disk on a thread of its own (a ``SerialWorker``), so that the game loop,
/// which scans the LEDs at real-time priority, never waits for a slow SD card; and, once a
/// history is attached, its finished games too, on the same thread and before the state that
/// names them, so that a crash or power cut leaves a finished game in both files or in neither.
///
/// ## Contract
/// - ``submit(_:)`` never waits for the disk: it leaves the snapshot and returns. A snapshot
///   still waiting when a newer one arrives is replaced: the latest wins, so a slow card costs
///   intermediate states, never the last one. Each snapshot is stamped, when submitted, with the
///   history's ``GameHistory/lastGame`` (or the number carried from the state at start): submit
///   it after the history has recorded the game it ends (``Autosave`` does, a loop turn later).
/// - What waits is bounded: one snapshot, and the history's lines (``GameHistory/pendingLimit``
///   bytes, then one rewrite of the games it keeps instead).
/// - Each write first makes the history's writes due (``GameHistory/writePending()``), then
///   writes the state with its stamp. When the history's write fails, the state is not written
///   (it could name a game the history does not hold); both are tried again at the next change.
/// - Snapshots are written one at a time, in the order submitted, each at most once; one equal
///   to the last written (stamp included) is not written again (a card's writes are its wear).
///   After a failed write nothing counts as written, so the next snapshot is written whatever it is.
/// - ``finish()`` waits until the last snapshot submitted (and every game) has been written;
///   later submissions are ignored. The service calls it before the process exits.
/// - A failed write is handed to `failed` (on the saver's thread) and the saver carries on.
public final class SnapshotSaver: Sendable {
    private struct Stamped: Equatable {
        var snapshot: GameSnapshot
        var lastGame: Int?
    }

    private struct State {
        var pending: Stamped?
        /// The history has writes to make.
        var historyDue = false
        var lastWritten: Stamped?
        var writing = false
        var finished = false
        var history: GameHistory?
        /// The last game the state named at start, for stamps while no history is attached.
        var carried: Int?
    }

    private let worker = SerialWorker(named: "saver")
    private let state = Protected(State())
    private let save: @Sendable (GameSnapshot, Int?) throws -> Void
    private let failed: @Sendable (any Error) -> Void

    /// - Parameter save: writes a snapshot naming the last game whose record is on disk.
    public init(save: @escaping @Sendable (GameSnapshot, Int?) throws -> Void, failed: @escaping @Sendable (any Error) -> Void) {
        self.save = save
        self.failed = failed
    }

    /// A saver of snapshots alone (no history), for callers that name no game.
    public convenience init(save: @escaping @Sendable (GameSnapshot) throws -> Void, failed: @escaping @Sendable (any Error) -> Void) {
        self.init(save: { snapshot, _ in try save(snapshot) }, failed: failed)
    }

    /// Stamps snapshots with `lastGame` until a history is attached: the number the restored
    /// state named, kept in the states written by a board that records no history.
    public func carry(lastGame: Int?) {
        state.withValue { $0.carried = lastGame }
    }

    /// Writes `history`'s games from now on, each before the first state stamped with it.
    public func attach(_ history: GameHistory) {
        state.withValue { $0.history = history }
        history.writeThrough(kick: { [self] in historyChanged() }, flush: { [self] in flush() })
    }

    /// Leaves `snapshot` to be written, replacing one still waiting.
    public func submit(_ snapshot: GameSnapshot) {
        let startWriting = state.withValue { state -> Bool in
            guard !state.finished else { return false }
            state.pending = Stamped(snapshot: snapshot, lastGame: state.history?.lastGame ?? state.carried)
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
        // Games recorded after the last snapshot (none in the service, where the board stops
        // first): written all the same.
        if state.withValue({ $0.historyDue }) {
            worker.submit { [self] in writePending() }
            worker.wait()
        }
    }

    private func historyChanged() {
        let startWriting = state.withValue { state -> Bool in
            state.historyDue = true
            // Once finished, ``finish()`` writes what is due.
            guard !state.writing && !state.finished else { return false }
            state.writing = true
            return true
        }
        if startWriting { worker.submit { [self] in writePending() } }
    }

    private func writePending() {
        while let (stamped, history) = takePending() {
            do throws(TextFileError) {
                try history?.writePending()
            } catch {
                state.withValue { $0.lastWritten = nil }
                failed(StoreError(path: history?.path ?? "", reason: error.reason, code: error.code))
                continue
            }
            guard let stamped, stamped != state.withValue({ $0.lastWritten }) else { continue }
            do {
                try save(stamped.snapshot, stamped.lastGame)
                state.withValue { $0.lastWritten = stamped }
            } catch {
                state.withValue { $0.lastWritten = nil }
                failed(error)
            }
        }
    }

    /// The snapshot waiting and the history whose writes are due, if there is anything to do.
    private func takePending() -> (Stamped?, GameHistory?)? {
        state.withValue { state in
            defer {
                state.pending = nil
                state.historyDue = false
            }
            guard state.pending != nil || state.historyDue else {
                state.writing = false
                return nil
            }
            return (state.pending, state.history)
        }
    }
}
