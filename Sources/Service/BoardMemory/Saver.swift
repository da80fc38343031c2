import Basics
import BoardProtocol
import ViewModel

/// Writes the board's memory on a thread of its own (a ``SerialWorker``), so that the game
/// loop, which scans the LEDs at real-time priority, never waits for a slow SD card.
///
/// ## Contract
/// - ``submit(_:)`` and ``record(_:)`` never wait for the disk. A snapshot still waiting when a
///   newer one arrives is replaced: the latest wins, so a slow card costs intermediate states,
///   never the last one.
/// - A finished game is committed with the first snapshot submitted after it, in one
///   transaction (``BoardMemory/commit(_:games:)``): never before the state that counts it.
///   Submit the snapshot after the game is recorded (``Autosave`` does, a loop turn later).
/// - What waits is bounded: one snapshot and at most ``pendingGames`` games (each a few hundred
///   bytes); past it the oldest waiting game is dropped, and said once (`failed`).
/// - Commits run one at a time, in order; a snapshot equal to the last committed, with no game,
///   is not written again (a card's writes are its wear). A commit that fails changes nothing:
///   its games wait for the next, and `failed` is told (on the saver's thread).
/// - ``flush()`` waits until everything submitted so far has been tried; ``finish()`` also
///   commits games no snapshot followed, and ignores later submissions.
public final class Saver: Sendable {
    /// The most finished games waiting for a commit.
    public static let pendingGames = 100

    /// A snapshot submitted: its number among submissions, and the games recorded before it.
    private struct Stamped {
        var value: GameSnapshot
        var games: Int
        var submission: Int
    }

    private struct State {
        /// The newest snapshot not yet committed: replaced by a newer one, kept when its commit fails.
        var snapshot: Stamped?
        var submissions = 0
        /// Games waiting, numbered in the order recorded.
        var games: [(number: Int, game: PlayedGame)] = []
        var recorded = 0
        var lastCommitted: GameSnapshot?
        var writing = false
        var finished = false
        /// The last pass, at finish: every waiting game, with the snapshot waiting if there is one.
        var draining = false
    }

    /// Commits a snapshot and the games before it in one transaction (``BoardMemory/commit(_:games:)``).
    public typealias Commit = @Sendable (GameSnapshot?, [PlayedGame]) throws(DatabaseError) -> Void

    private let commit: Commit
    private let worker = SerialWorker(named: "saver")
    private let state = Protected(State())
    private let committed: @Sendable () -> Void
    private let failed: @Sendable (SaveFailure) -> Void

    /// Commits to `memory`.
    public static func committing(to memory: BoardMemory) -> Commit {
        { snapshot, games throws(DatabaseError) in try memory.commit(snapshot, games: games) }
    }

    /// - Parameters:
    ///   - commit: how a commit is made (a test's seam: a card that stalls or fails).
    ///   - restored: the snapshot the database holds already (the one restored at start): not
    ///     written again until it changes.
    ///   - committed: told after each commit that wrote something.
    ///   - failed: told each commit that failed, and each game dropped.
    public init(
        commit: @escaping Commit, restored: GameSnapshot? = nil, committed: @escaping @Sendable () -> Void = {},
        failed: @escaping @Sendable (SaveFailure) -> Void = { _ in }
    ) {
        state.withValue { $0.lastCommitted = restored }
        self.commit = commit
        self.committed = committed
        self.failed = failed
    }

    /// Leaves `snapshot` to be committed, replacing one still waiting.
    public func submit(_ snapshot: GameSnapshot) {
        let start = state.withValue { state -> Bool in
            guard !state.finished else { return false }
            state.submissions += 1
            state.snapshot = Stamped(value: snapshot, games: state.recorded, submission: state.submissions)
            return startWriting(&state)
        }
        if start { worker.submit { [self] in writePending() } }
    }

    /// Leaves a finished game to be committed with the next snapshot (ignored after ``finish()``).
    /// A game that is not one the board could have played (``PlayedGame/problem()``) is left out
    /// and said (`failed`): the database refuses to open with one, so one bad record would cost
    /// the whole history.
    public func record(_ game: PlayedGame) {
        if let problem = game.problem() {
            failed(.gameRefused(problem))
            return
        }
        let dropped = state.withValue { state -> Bool in
            guard !state.finished else { return false }
            state.recorded += 1
            state.games.append((state.recorded, game))
            guard state.games.count > Self.pendingGames else { return false }
            state.games.removeFirst()
            return true
        }
        if dropped { failed(.gameDropped) }
    }

    /// Waits until everything submitted so far has been tried.
    public func flush() { worker.wait() }

    /// ``flush()``, for at most `limit` (a card that stalls); whether everything had been tried.
    @discardableResult
    public func flush(atMost limit: Duration) -> Bool { worker.wait(atMost: limit) }

    /// Waits until everything submitted has been tried, then commits what still waits (games no
    /// snapshot followed, or a snapshot whose commit failed, with every game before it) once
    /// more, and stops taking snapshots.
    public func finish() {
        state.withValue { $0.finished = true }
        worker.wait()
        let start = state.withValue { state -> Bool in
            state.draining = true
            return (!state.games.isEmpty || state.snapshot != nil) && startWriting(&state)
        }
        if start { worker.submit { [self] in writePending() } }
        worker.wait()
    }

    private func startWriting(_ state: inout State) -> Bool {
        defer { state.writing = true }
        return !state.writing
    }

    private func writePending() {
        while let (snapshot, games) = takeWork() {
            do throws(DatabaseError) {
                try commit(snapshot?.value, games.map(\.game))
                state.withValue { state in
                    if let snapshot {
                        state.lastCommitted = snapshot.value
                        if state.snapshot?.submission == snapshot.submission { state.snapshot = nil }
                    }
                    let last = games.last?.number ?? 0
                    state.games.removeAll { $0.number <= last }
                }
                committed()
            } catch {
                // What failed waits (a newer snapshot replaces its snapshot) for the next
                // submission or the finish: no retry in a loop against a failing card.
                state.withValue { state in
                    state.lastCommitted = nil
                    state.writing = false
                }
                failed(.commit(error))
                return
            }
        }
    }

    /// The snapshot waiting and the games it counts, if there is anything to commit.
    private func takeWork() -> (Stamped?, [(number: Int, game: PlayedGame)])? {
        state.withValue { state in
            var snapshot = state.snapshot
            if let waiting = snapshot, waiting.value == state.lastCommitted, !state.draining {
                state.snapshot = nil
                snapshot = nil
            }
            let stamp = state.draining ? state.recorded : snapshot?.games ?? 0
            let games = state.games.filter { $0.number <= stamp }
            guard snapshot != nil || !games.isEmpty else {
                state.writing = false
                return nil
            }
            // The last pass is one commit, whether or not it is made.
            state.draining = false
            return (snapshot, games)
        }
    }
}

/// What the saver could not do.
public enum SaveFailure: Error, Sendable, CustomStringConvertible {
    case commit(DatabaseError)
    /// A finished game dropped from what waited: more than ``Saver/pendingGames`` while commits failed.
    case gameDropped
    /// A finished game left out: not one the board could have played (its recorder's fault).
    case gameRefused(String)

    /// The system's error number behind it, telling one kind of failure from another.
    public var kind: Int32? {
        switch self {
        case .commit(let error): error.systemCode == 0 ? error.code : error.systemCode
        case .gameDropped: -1
        case .gameRefused: -2
        }
    }

    public var description: String {
        switch self {
        case .commit(let error): "\(error)"
        case .gameDropped: "a finished game was dropped: more than \(Saver.pendingGames) waited while saving failed"
        case .gameRefused(let problem): "a finished game was left out of the history, not being one the board could have played: \(problem)"
        }
    }
}
