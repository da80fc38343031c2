import Basics
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

/// Keeps the game, the next starter and the score in a file in the state directory, so that a
/// crash, a restart or a power cut loses nothing.
///
/// ## Contract
/// - ``save(_:)`` is atomic: a temporary file is written and fsynced, renamed over the state
///   file, and the directory fsynced, so the file is always either the old or the new state.
/// - ``load()`` only reads: the saved snapshot, ``Loaded/fresh`` when there is none, or
///   ``Loaded/unusable(problem:)`` for a corrupt or truncated file, which the caller sets aside
///   with ``setAside()`` once it knows it can play (never a crash loop, and nothing moved for a
///   run that cannot start).
/// - A file that cannot be used and cannot be set aside is never overwritten: after
///   ``setAside()`` throws, every ``save(_:)`` of this store (and its copies) throws instead of
///   writing, naming the file and what to do.
/// - ``prepare()`` makes the directory and removes the temporary files saves (of the state and
///   of the history) cut short by a crash left (the files themselves are then still the old
///   ones, whole); nothing else
///   creates or removes anything.
public struct StateStore: Sendable {
    /// The service's state directory: systemd's `StateDirectory=tictactoe` (systemd/tictactoe.service).
    public static let serviceDirectory = "/var/lib/tictactoe"
    /// The names of the files a state directory holds: the saved game, the finished games'
    /// journal (``GameHistory``), and the history as earlier versions kept it.
    public static let stateFile = "state.json", historyFile = "history.jsonl", legacyHistoryFile = "history.json"
    public static let fileNames = [stateFile, historyFile, legacyHistoryFile]

    public let directory: String
    public var path: String { directory + "/" + Self.stateFile }
    /// The finished games' file (``GameHistory``), beside the state.
    public var historyPath: String { directory + "/" + Self.historyFile }
    /// The history as earlier versions kept it, migrated into ``historyPath`` at start.
    public var legacyHistoryPath: String { directory + "/" + Self.legacyHistoryFile }
    private let move: @Sendable (String, String) -> Int32
    /// Why saving is refused: set when an unusable file could not be set aside. Shared by the
    /// copies of the store (the board's and the saver's).
    private let keptInPlace = Protected<String?>(nil)

    /// - Parameter move: how an unusable file is moved aside (``TextFile/setAside(_:suffix:move:)``;
    ///   a test's seam).
    public init(directory: String, move: @escaping @Sendable (String, String) -> Int32 = TextFile.renameWithoutReplacing) {
        self.directory = directory
        self.move = move
    }

    /// What ``load()`` found.
    public enum Loaded: Sendable, Equatable {
        case restored(GameSnapshot)
        case fresh
        /// The file cannot be used; `problem` says why, naming it.
        case unusable(problem: String)

        public var snapshot: GameSnapshot? {
            if case .restored(let snapshot) = self { snapshot } else { nil }
        }
    }

    public func load() -> Loaded { loadNamingGame().loaded }

    /// ``load()``, with the number of the last finished game the state names (see
    /// ``save(_:lastGame:)``), when it is restored and names one.
    public func loadNamingGame() -> (loaded: Loaded, lastGame: Int?) {
        var status = stat()
        guard lstat(path, &status) == 0 || errno != ENOENT else { return (.fresh, nil) }
        let problem: StateFileProblem
        do {
            let text = try TextFile.read(path)
            if let (line, scalar) = DecodingError.controlCharacterInText(text) {
                throw StateFileProblem.invalid("damaged JSON: the control character \(scalar.codePoint) stands raw inside text on line \(line)")
            }
            if let (line, escape) = DecodingError.badEscapeInText(text) {
                throw StateFileProblem.invalid("damaged JSON: \(escape.quoted()) on line \(line) is no escape JSON has")
            }
            let saved = try JSONDecoder().decode(SavedState.self, from: Data(text.utf8))
            return (.restored(try saved.snapshot()), saved.lastGame)
        } catch let error as StateFileProblem {
            problem = error
        } catch let error as TextFileError {
            problem = .unreadable(error.reason)
        } catch let error as DecodingError {
            problem = .invalid(error.problem)
        } catch {
            problem = .invalid("unreadable JSON")
        }
        return (.unusable(problem: "\(path.shownPath) \(problem)"), nil)
    }

    /// Moves the state file (or a directory standing at its name) out of the way, kept for a
    /// person to look at, and returns where to: `state.json.corrupt-<time>` (with `-2`, `-3`, …
    /// when that is taken: nothing is overwritten). Throws, having moved nothing, when it cannot
    /// be moved; from then on the store refuses to save over it.
    public func setAside() throws(StoreError) -> String {
        do {
            return try TextFile.setAside(path, suffix: ".corrupt-\(Int(Date().timeIntervalSince1970))", move: move)
        } catch {
            keptInPlace.withValue { $0 = error.reason }
            throw StoreError(path: path, reason: error.reason, code: error.code)
        }
    }

    /// Whether saving is refused because an unusable file could not be set aside.
    public var isKeptInPlace: Bool { keptInPlace.value != nil }

    /// Makes the state directory and any missing parents, and removes what saves cut short
    /// left. Returns the paths of what it removed.
    @discardableResult
    public func prepare() throws(StoreError) -> [String] {
        do {
            try TextFile.makeDirectory(directory)
        } catch {
            throw StoreError(path: directory, reason: error.reason, code: error.code)
        }
        do {
            return try TextFile.removeLeftovers(of: [path, historyPath, legacyHistoryPath])
        } catch {
            throw StoreError(path: path, reason: error.reason, code: error.code)
        }
    }

    /// Writes `snapshot` atomically, naming `lastGame`, the last finished game whose record is
    /// on disk (``GameHistory/lastGame``; `nil` names none); throws without writing when the file
    /// there is kept in place (see ``setAside()``).
    public func save(_ snapshot: GameSnapshot, lastGame: Int? = nil) throws {
        if let why = keptInPlace.value {
            throw StoreError(path: path, reason: """
                not saved: the file there is unusable and could not be moved aside (\(why)), so the board keeps it \
                and does not save; move it away and restart the board
                """)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(SavedState(snapshot, lastGame: lastGame))
        do {
            try TextFile.write(bytes: Array(data), to: path)
        } catch {
            throw StoreError(path: path, reason: error.reason, code: error.code)
        }
    }
}

/// A save that failed: which file, and why.
public struct StoreError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// The system's error number behind it, if one was.
    public var code: Int32?

    public init(path: String, reason: String, code: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.code = code
    }

    public var description: String { "\(path): \(reason)" }
}
