import Basics
import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ViewModel
import Reactive
#if canImport(Glibc)
import Glibc
#endif

/// The last ``capacity`` finished games, recorded as they end and kept in a journal
/// (``HistoryJournal``, `history.jsonl`), so that `tictactoe history` can show and replay them
/// after a restart.
///
/// ## Contract
/// - ``record(_:clock:)`` observes the view model on the game loop (call it there); the loop
///   only hands each finished game over. Each game gets the next number (``lastGame``): the
///   state file names the last game it includes, which is how a start tells a game in both
///   files from one in the history alone.
/// - Writes are done by ``writePending()``, on one thread at a time: by default on a thread of
///   the history's own (a ``SerialWorker``); once ``writeThrough(kick:flush:)`` is called, by
///   whoever took them over (the service's saver, which writes a game's line before the state
///   that names it, on one thread). A finished game appends one line; the file is rewritten
///   whole, atomically, only to compact it, to migrate a `history.json` of an older version,
///   or to drop what a start found it should not keep.
/// - Memory held for writes has a bound: the lines waiting are at most ``pendingLimit`` bytes;
///   past it they are dropped and one rewrite of the games in memory (never more than
///   ``capacity``) is due instead. A write that fails makes a rewrite due too: nothing waiting
///   grows while a card fails.
/// - ``games`` may be read from any thread: oldest first.
/// - The file is untrusted input: every game in it must be one the board could have recorded
///   (``PlayedGame/problem()``), or none is used. A last line a power cut tore is dropped and
///   said in ``notes``; a file that cannot be used otherwise is moved aside to
///   `history.jsonl.corrupt-<time>` (as a damaged state file is) and the history starts with no
///   games, ``problem`` saying why and where the file went; when it cannot be moved aside, it
///   is never overwritten: the games are kept in memory only (``problem`` says so).
/// - Games numbered after the last game the state names (`lastGameOfState`) were written by a
///   save a crash cut short before its state: they are dropped (``notes`` says so), so that a
///   game is in both files or in neither.
/// - A write that fails leaves the last good file as it was; the games stay in memory and the
///   next write tries again. On its own thread, the first failure of each kind is handed to
///   `failed`, and the first success after failures to `recovered` with their number (see
///   ``RepeatedFailures``): a full card is not reported once per game.
public final class GameHistory: Sendable {
    public static let capacity = 100
    /// The most bytes of lines waiting to be appended; past it, one rewrite instead.
    public static let pendingLimit = 64 * 1024

    /// `history.json` as earlier versions wrote it (before the journal): a version, and the games oldest first.
    /// Read once, to migrate it.
    struct Saved: Codable {
        static let currentVersion = 1
        var version: Int
        var games: [PlayedGame]
    }

    /// Where the games are written; `nil` when they are kept in memory only (none was given, or
    /// an unusable file there could not be moved aside).
    public let path: String?
    /// Why the file could not be used and what became of it, if it could not.
    public let problem: String?
    /// What the start did that the log should say: a torn line dropped, games dropped, a file
    /// migrated.
    public let notes: [String]
    private let ledger: Protected<Ledger>
    private let writer: Protected<Writer>
    private let failed: @Sendable (String) -> Void
    private let recovered: @Sendable (Int) -> Void
    /// Touched by the history's own worker only.
    private let failures = Protected(RepeatedFailures())

    /// The games, and the writes still to make.
    struct Ledger {
        var games: [HistoryJournal.Record] = []
        var lastGame = 0
        /// Lines of finished games not yet appended.
        var pending: [UInt8] = []
        var pendingRecords = 0
        /// The file is to be rewritten whole from ``games`` (the lines waiting are in it).
        var rewriteDue = false
        /// What the file holds: lines after the header, and bytes.
        var fileRecords = 0
        var fileBytes = 0
        /// A `history.json` to remove once a rewrite has put its games in the journal.
        var legacy: String?
        /// A job of the history's own worker is queued and has not yet taken the writes.
        var jobQueued = false
    }

    private enum Writer {
        case own(SerialWorker)
        case through(kick: @Sendable () -> Void, flush: @Sendable () -> Void)
    }

    /// A history kept in `file` (read now if it exists), or only in memory when `nil`.
    /// - Parameters:
    ///   - legacyFile: a `history.json` of an older version, read (and migrated) when `file`
    ///     does not exist yet.
    ///   - lastGameOfState: the last game the state file names, if it names one.
    ///   - move: how an unusable file is moved aside (``TextFile/setAside(_:suffix:move:)``).
    public init(
        file: String?, legacyFile: String? = nil, lastGameOfState: Int? = nil,
        failed: @escaping @Sendable (String) -> Void = { _ in },
        recovered: @escaping @Sendable (Int) -> Void = { _ in },
        move: (String, String) -> Int32 = TextFile.renameWithoutReplacing
    ) {
        self.failed = failed
        self.recovered = recovered
        writer = Protected(.own(SerialWorker(named: "history")))
        guard let file else {
            path = nil
            ledger = Protected(Ledger(lastGame: lastGameOfState ?? 0))
            problem = nil
            notes = []
            return
        }
        switch Self.load(file, legacy: legacyFile, lastGameOfState: lastGameOfState) {
        case .success(let found):
            path = file
            var ledger = Ledger(games: found.records, lastGame: max(found.records.last?.game ?? 0, lastGameOfState ?? 0))
            ledger.fileRecords = found.fileRecords
            ledger.fileBytes = found.fileBytes
            ledger.rewriteDue = found.rewriteDue
            ledger.legacy = found.legacy
            self.ledger = Protected(ledger)
            problem = nil
            notes = found.notes
        case .failure(let unreadable):
            ledger = Protected(Ledger(lastGame: lastGameOfState ?? 0, rewriteDue: true))
            notes = []
            do throws(TextFileError) {
                let aside = try TextFile.setAside(unreadable.file, suffix: ".corrupt-\(WallTime.now().seconds)", move: move)
                path = file
                problem = "\(unreadable.file.shownPath): \(unreadable.reason); moved it to \(aside.shownPath) and started the history afresh"
            } catch {
                path = nil
                problem = """
                    \(unreadable.file.shownPath): \(unreadable.reason); it could not be moved aside (\(error.reason)), so it is kept as it is \
                    and this run's games are kept in memory only, never written over it: move it away and restart the board
                    """
            }
        }
    }

    public var games: [PlayedGame] { ledger.value.games.map(\.played) }

    /// The number of the last game recorded (or named by the state at start); 0 before any.
    public var lastGame: Int { ledger.value.lastGame }

    /// Bytes of lines waiting to be written (at most ``pendingLimit``).
    public var pendingBytes: Int { ledger.value.pending.count }

    /// The games in `file` (or, while there is none, in `legacyFile`), read without keeping or
    /// changing anything (`tictactoe check-state`), or why the board could not use it: the same
    /// reading the board makes at its start.
    public static func read(_ file: String, legacyFile: String? = nil, lastGameOfState: Int? = nil) -> Result<[PlayedGame], Problem> {
        load(file, legacy: legacyFile, lastGameOfState: lastGameOfState)
            .map { $0.records.map(\.played) }
            .mapError { Problem(description: "\($0.file.shownPath): \($0.reason)") }
    }

    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Records each game the view model finishes from now on. Call on the game loop.
    public func record(_ viewModel: GameViewModel, clock: @escaping @Sendable () -> WallTime = WallTime.now) -> any Disposable {
        // Events arrive on the game loop only.
        let recorder = Confined(GameRecorder())
        return viewModel.events.observeValues { [self] event in
            let state = viewModel.state.value
            if let game = recorder.value.take(event, state: state, names: viewModel.players, at: clock()) {
                add(game)
            }
        }
    }

    /// Hands the writes over to `kick` (called after each finished game; it must lead to
    /// ``writePending()`` on the thread that writes) and ``flush()`` to `flush`.
    public func writeThrough(kick: @escaping @Sendable () -> Void, flush: @escaping @Sendable () -> Void) {
        writer.withValue { $0 = .through(kick: kick, flush: flush) }
    }

    /// Waits until every finished game handed over has been written (or has failed).
    public func flush() {
        switch writer.value {
        case .own(let worker): worker.wait()
        case .through(_, let flush): flush()
        }
    }

    /// Makes the writes due now: the lines waiting appended, or the file rewritten whole when a
    /// rewrite is due or the file would grow past ``HistoryJournal/compactRecords`` or
    /// ``HistoryJournal/compactBytes``; then a migrated `history.json` removed. Call on one
    /// thread at a time. Throws what failed (the file is ``path``); the games stay in memory and
    /// a rewrite is due.
    public func writePending() throws(TextFileError) {
        guard let path, let work = takeWork() else { return }
        do throws(TextFileError) {
            if let records = work.rewrite {
                let size = try HistoryJournal.rewrite(records, to: path)
                ledger.withValue { ledger in
                    ledger.fileRecords = records.count
                    ledger.fileBytes = size
                }
            } else {
                try HistoryJournal.append(work.append, to: path)
                ledger.withValue { ledger in
                    ledger.fileRecords += work.records
                    ledger.fileBytes += work.append.count
                }
            }
            // The journal holds every game now: the migrated file goes, flushed so that a cut
            // cannot bring it back beside a journal that has moved on.
            if let legacy = ledger.value.legacy {
                try TextFile.remove(legacy)
                ledger.withValue { $0.legacy = nil }
            }
        } catch {
            // Whatever did not reach the file is in memory: one rewrite of it makes it whole.
            ledger.withValue { $0.rewriteDue = true }
            throw error
        }
    }

    /// The writes due now, taken from the ledger: the lines waiting, or every game for a rewrite.
    private func takeWork() -> (append: [UInt8], records: Int, rewrite: [HistoryJournal.Record]?)? {
        ledger.withValue { ledger in
            defer {
                ledger.pending = []
                ledger.pendingRecords = 0
                ledger.rewriteDue = false
            }
            let records = ledger.fileRecords + ledger.pendingRecords
            let bytes = ledger.fileBytes + ledger.pending.count
            if ledger.rewriteDue || records > HistoryJournal.compactRecords || bytes > HistoryJournal.compactBytes {
                return ([], 0, ledger.games)
            }
            guard ledger.pendingRecords > 0 else { return nil }
            return (ledger.pending, ledger.pendingRecords, nil)
        }
    }

    private func add(_ game: PlayedGame) {
        let saved = path != nil
        // One lock for the game and its line: a rewrite taken between the two would hold the
        // game, and the line appended after it would record it twice.
        ledger.withValue { ledger in
            // Only a forged file brings the count to its limit: no game is numbered past it.
            guard ledger.lastGame < HistoryJournal.gameLimit else { return }
            ledger.lastGame += 1
            let record = HistoryJournal.Record(game: ledger.lastGame, played: game)
            ledger.games.append(record)
            if ledger.games.count > Self.capacity { ledger.games.removeFirst(ledger.games.count - Self.capacity) }
            guard saved, !ledger.rewriteDue else { return }
            if let line = try? HistoryJournal.line(record), ledger.pending.count + line.count <= Self.pendingLimit {
                ledger.pending += line
                ledger.pendingRecords += 1
            } else {
                // Too much waiting (a card that stalls while games are played flat out): the
                // rewrite holds nothing more than the games already kept.
                ledger.pending = []
                ledger.pendingRecords = 0
                ledger.rewriteDue = true
            }
        }
        guard saved else { return }
        switch writer.value {
        case .through(let kick, _): kick()
        case .own(let worker):
            let queue = ledger.withValue { ledger -> Bool in
                defer { ledger.jobQueued = true }
                return !ledger.jobQueued
            }
            guard queue else { return }
            worker.submit { [self] in writeOnOwnThread() }
        }
    }

    private func writeOnOwnThread() {
        ledger.withValue { $0.jobQueued = false }
        do throws(TextFileError) {
            try writePending()
            if let count = failures.withValue({ $0.succeeded() }) { recovered(count) }
        } catch {
            if failures.withValue({ $0.failed(kind: error.code) }) { failed("\(path ?? ""): \(error.reason)") }
        }
    }

    /// What a start found in the files.
    private struct Found {
        var records: [HistoryJournal.Record]
        var fileRecords = 0
        var fileBytes = 0
        var rewriteDue = false
        var legacy: String?
        var notes: [String] = []
    }

    private static func load(_ path: String, legacy: String?, lastGameOfState: Int?) -> Result<Found, Unreadable> {
        var status = stat()
        // A `history.json` beside the journal: an older version's, still to migrate, or left by
        // a start cut short between the migration's rewrite and its removal.
        let legacy = legacy.flatMap { lstat($0, &status) == 0 ? $0 : nil }
        if lstat(path, &status) != 0 && errno == ENOENT {
            // The first write makes the file, whole (an append needs it there).
            guard let legacy else { return .success(Found(records: [], rewriteDue: true)) }
            return loadLegacy(legacy).map { games in
                let records = games.enumerated().map { HistoryJournal.Record(game: $0.offset + 1, played: $0.element) }
                return Found(
                    records: records, rewriteDue: true, legacy: legacy,
                    notes: ["\(legacy.shownPath): \(games.count) finished games, moved into \(path.shownPath) at the next write"])
            }
        }
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            return .failure(Unreadable(path, error.reason))
        }
        switch HistoryJournal.parse(text) {
        case .failure(let problem): return .failure(Unreadable(path, problem.reason))
        case .success(let parsed): return .success(found(in: parsed, at: path, legacy: legacy, lastGameOfState: lastGameOfState))
        }
    }

    /// What a journal read whole holds, reconciled with the state's last game.
    private static func found(in parsed: HistoryJournal.Parsed, at path: String, legacy: String?, lastGameOfState: Int?) -> Found {
        var found = Found(records: parsed.records, fileRecords: parsed.records.count, fileBytes: parsed.wholeBytes, legacy: legacy)
        if let legacy {
            found.notes.append("\(legacy.shownPath): its games were moved into \(path.shownPath) before; removed at the next write")
        }
        if let torn = parsed.torn {
            found.rewriteDue = true
            let lastWhole = found.records.last?.game ?? 0
            if let named = lastGameOfState, named > lastWhole {
                // The journal is flushed before the state that names its game is written, so
                // this is damage after the fact (the card lost what it had), not a cut save.
                found.notes.append("""
                    \(path.shownPath): \(torn); dropped it, and the history lacks game \(named), which the state says \
                    was saved (the card lost part of what it had written)
                    """)
            } else {
                found.notes.append("\(path.shownPath): \(torn); dropped it (the game it held had not been saved with the state)")
            }
        }
        if let named = lastGameOfState, let last = found.records.last?.game, last > named {
            let dropped = found.records.filter { $0.game > named }.map { String($0.game) }
            found.records.removeAll { $0.game > named }
            found.rewriteDue = true
            found.notes.append("""
                \(path.shownPath): dropped game \(dropped.joined(separator: ", ")): its save was cut short before the state that \
                names it was written, so the board restores the game before its end
                """)
        }
        found.records = Array(found.records.suffix(capacity))
        return found
    }

    /// The games of a `history.json` of an older version.
    private static func loadLegacy(_ path: String) -> Result<[PlayedGame], Unreadable> {
        var status = stat()
        if lstat(path, &status) != 0 && errno == ENOENT { return .success([]) }
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            return .failure(Unreadable(path, error.reason))
        }
        if let (line, scalar) = DecodingError.controlCharacterInText(text) {
            return .failure(Unreadable(path, "damaged JSON: the control character \(scalar.codePoint) stands raw inside text on line \(line)"))
        }
        if let (line, escape) = DecodingError.badEscapeInText(text) {
            return .failure(Unreadable(path, "damaged JSON: \(escape.quoted()) on line \(line) is no escape JSON has"))
        }
        let saved: Saved
        do {
            saved = try JSONDecoder().decode(Saved.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            return .failure(Unreadable(path, error.problem))
        } catch {
            return .failure(Unreadable(path, "unreadable JSON"))
        }
        guard saved.version == Saved.currentVersion else {
            return .failure(Unreadable(path, "format version \(saved.version), expected \(Saved.currentVersion)"))
        }
        for (index, game) in saved.games.enumerated() {
            if let problem = game.problem() { return .failure(Unreadable(path, "games[\(index)]: \(problem)")) }
        }
        return .success(saved.games)
    }

    private struct Unreadable: Error {
        /// The file that cannot be used: the journal, or the `history.json` being migrated.
        var file: String
        var reason: String
        init(_ file: String, _ reason: String) {
            self.file = file
            self.reason = reason
        }
    }
}
