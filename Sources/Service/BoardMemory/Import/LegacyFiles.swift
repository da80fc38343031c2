import Basics
import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ViewModel
#if canImport(Glibc)
import Glibc
#endif

/// What release 0.4 kept in a state directory, read once to import it into the database: the
/// saved game (`state.json`) and the finished games (`history.jsonl`, or the `history.json` of
/// the versions before it).
///
/// Each file is untrusted input, read as 0.4 read it: a file that cannot be used is named in
/// ``unusable`` (and set aside by the import, not imported), never half-read. The rule 0.4 kept
/// between its two files holds here too: games numbered after the last game the state names
/// were written by a save a crash cut short before its state, and are not imported.
struct LegacyFiles: Sendable {
    static let stateFile = "state.json", historyFile = "history.jsonl", olderHistoryFile = "history.json"
    static let names = [stateFile, historyFile, olderHistoryFile]

    /// The files found, by path.
    var found: [String] = []
    var snapshot: GameSnapshot?
    var games: [PlayedGame] = []
    /// The files that cannot be used, by path, with why.
    var unusable: [(path: String, problem: String)] = []
    /// What the log should say: a torn line dropped, games dropped.
    var notes: [String] = []

    var isEmpty: Bool { found.isEmpty }

    /// A file as the import recorded it: its name, size and FNV-1a digest.
    struct Fingerprint: Sendable, Equatable {
        var name: String
        var bytes: Int
        var digest: String
    }

    /// The fingerprints of the files found (one that cannot be read has none).
    var fingerprints: [Fingerprint] { found.compactMap(Self.fingerprint) }

    static func fingerprint(of path: String) -> Fingerprint? {
        guard let bytes = try? TextFile.readBytes(path) else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return Fingerprint(name: name, bytes: bytes.count, digest: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// Release 0.4's files in `directory`, by path: those `imports` records (left by a crash before
    /// they were renamed), and the others (written since the import).
    static func sorted(in directory: String, against imports: [Fingerprint]) -> (imported: [String], strays: [String]) {
        var status = stat()
        let present = names.map { directory + "/" + $0 }.filter { lstat($0, &status) == 0 }
        let imported = present.filter { file in fingerprint(of: file).map(imports.contains) ?? false }
        return (imported, present.filter { !imported.contains($0) })
    }

    static func read(directory: String) -> LegacyFiles {
        var files = LegacyFiles()
        var status = stat()
        files.found = names.map { directory + "/" + $0 }.filter { lstat($0, &status) == 0 }
        let state = directory + "/" + stateFile, journal = directory + "/" + historyFile, older = directory + "/" + olderHistoryFile
        var lastGameOfState: Int?
        if files.found.contains(state) {
            switch readState(state) {
            case .success(let (snapshot, lastGame)): (files.snapshot, lastGameOfState) = (snapshot, lastGame)
            case .failure(let problem): files.unusable.append((state, problem.description))
            }
        }
        if files.found.contains(journal) {
            switch readJournal(journal, lastGameOfState: lastGameOfState) {
            case .success(let (games, notes)): (files.games, files.notes) = (games, notes)
            case .failure(let problem): files.unusable.append((journal, problem.reason))
            }
        } else if files.found.contains(older) {
            switch readOlderHistory(older) {
            case .success(let games): files.games = games
            case .failure(let problem): files.unusable.append((older, problem.reason))
            }
        }
        return files
    }

    /// The snapshot in a `state.json`, with the number of the last game it names.
    static func readState(_ path: String) -> Result<(GameSnapshot, Int?), StateFileProblem> {
        do {
            let text = try TextFile.read(path)
            try rejectDamagedJSON(text)
            let saved = try JSONDecoder().decode(SavedState.self, from: Data(text.utf8))
            return .success((try saved.snapshot(), saved.lastGame))
        } catch let error as StateFileProblem {
            return .failure(error)
        } catch let error as TextFileError {
            return .failure(.unreadable(error.reason))
        } catch let error as DecodingError {
            return .failure(.invalid(error.problem))
        } catch {
            return .failure(.invalid("unreadable JSON"))
        }
    }

    /// The games of a `history.jsonl`, reconciled with the state's last game.
    private static func readJournal(_ path: String, lastGameOfState: Int?) -> Result<([PlayedGame], [String]), HistoryJournal.Problem> {
        let parsed: HistoryJournal.Parsed
        do {
            switch HistoryJournal.parse(try TextFile.read(path)) {
            case .success(let whole): parsed = whole
            case .failure(let problem): return .failure(problem)
            }
        } catch {
            return .failure(HistoryJournal.Problem(error.reason))
        }
        var records = parsed.records, notes: [String] = []
        if let torn = parsed.torn { notes.append("\(path.shownPath): \(torn); dropped it (the game it held had not been saved with the state)") }
        if let named = lastGameOfState, records.contains(where: { $0.game > named }) {
            let dropped = records.filter { $0.game > named }.map { String($0.game) }
            records.removeAll { $0.game > named }
            notes.append("\(path.shownPath): left out game \(dropped.joined(separator: ", ")): its save was cut short before the state that names it was written")
        }
        return .success((records.map(\.played), notes))
    }

    /// `history.json` as the versions before the journal wrote it.
    private struct OlderHistory: Codable {
        var version: Int
        var games: [PlayedGame]
    }

    private static func readOlderHistory(_ path: String) -> Result<[PlayedGame], HistoryJournal.Problem> {
        let saved: OlderHistory
        do {
            let text = try TextFile.read(path)
            try rejectDamagedJSON(text)
            saved = try JSONDecoder().decode(OlderHistory.self, from: Data(text.utf8))
        } catch let error as StateFileProblem {
            return .failure(HistoryJournal.Problem(error.description))
        } catch let error as TextFileError {
            return .failure(HistoryJournal.Problem(error.reason))
        } catch let error as DecodingError {
            return .failure(HistoryJournal.Problem(error.problem))
        } catch {
            return .failure(HistoryJournal.Problem("unreadable JSON"))
        }
        guard saved.version == 1 else { return .failure(HistoryJournal.Problem("format version \(saved.version), expected 1")) }
        for (index, game) in saved.games.enumerated() {
            if let problem = game.problem() { return .failure(HistoryJournal.Problem("games[\(index)]: \(problem)")) }
        }
        return .success(saved.games)
    }

    /// Damage Swift 6.0's JSON decoder traps on instead of throwing [6.0.3: decoder-traps]: refused first.
    private static func rejectDamagedJSON(_ text: String) throws(StateFileProblem) {
        if let (line, scalar) = DecodingError.controlCharacterInText(text) {
            throw .invalid("damaged JSON: the control character \(scalar.codePoint) stands raw inside text on line \(line)")
        }
        if let (line, escape) = DecodingError.badEscapeInText(text) {
            throw .invalid("damaged JSON: \(escape.quoted()) on line \(line) is no escape JSON has")
        }
    }
}
