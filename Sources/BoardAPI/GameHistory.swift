import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Presentation
import Reactive
#if canImport(Glibc)
import Glibc
#endif

/// The last ``capacity`` finished games, recorded as they end and kept in a file, so that
/// `tictactoe history` can show and replay them after a restart.
///
/// ## Contract
/// - ``record(_:clock:)`` observes the view model on the game loop (call it there); the loop
///   only hands each finished game over. The file is written on a thread of the history's own
///   (a ``SerialWorker``), atomically (a temporary file, fsync, rename), never more than
///   ``capacity`` games.
/// - ``games`` may be read from any thread: oldest first.
/// - The file is untrusted input: every game in it must be one the board could have recorded
///   (``PlayedGame/problem()``), or none is used. A file that cannot be used is moved aside to
///   `history.json.corrupt-<time>` (as a damaged state file is) and the history starts with no
///   games, ``problem`` saying why and where the file went; when it cannot be moved aside, it
///   is never overwritten: the games are kept in memory only (``problem`` says so). Temporary
///   files of writes a crash cut short are removed at start.
/// - A write that fails leaves the last good file as it was; the games stay in memory and the
///   next finished game tries again. The first failure of each kind is handed to `failed`, and
///   the first success after failures to `recovered` with their number (on the history's
///   thread, see ``RepeatedFailures``): a full card is not reported once per game.
public final class GameHistory: Sendable {
    public static let capacity = 100

    /// The file as written: a version, and the games oldest first.
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
    private let kept: Protected<[PlayedGame]>
    private let writer = SerialWorker(named: "history")
    private let failed: @Sendable (String) -> Void
    private let recovered: @Sendable (Int) -> Void
    /// Touched on `writer` only.
    private let failures = Protected(RepeatedFailures())

    /// A history kept in `file` (read now if it exists), or only in memory when `nil`.
    /// - Parameter move: how an unusable file is moved aside (``TextFile/setAside(_:suffix:move:)``).
    public init(
        file: String?, failed: @escaping @Sendable (String) -> Void = { _ in },
        recovered: @escaping @Sendable (Int) -> Void = { _ in },
        move: (String, String) -> Int32 = TextFile.renameWithoutReplacing
    ) {
        self.failed = failed
        self.recovered = recovered
        guard let file else {
            path = nil
            kept = Protected([])
            problem = nil
            return
        }
        switch Self.load(file) {
        case .success(let games):
            path = file
            kept = Protected(Array(games.suffix(Self.capacity)))
            problem = nil
        case .failure(let unreadable):
            kept = Protected([])
            do throws(TextFileError) {
                let aside = try TextFile.setAside(file, suffix: ".corrupt-\(WallTime.now().seconds)", move: move)
                path = file
                problem = "\(file.shownPath): \(unreadable.reason); moved it to \(aside.shownPath) and started the history afresh"
            } catch {
                path = nil
                problem = """
                    \(file.shownPath): \(unreadable.reason); it could not be moved aside (\(error.reason)), so it is kept as it is \
                    and this run's games are kept in memory only, never written over it: move it away and restart the board
                    """
            }
        }
    }

    public var games: [PlayedGame] { kept.value }

    /// The games in `file`, read without keeping or changing anything (`tictactoe check-state`),
    /// or why the board could not use it: the same reading the board makes at its start.
    public static func read(_ file: String) -> Result<[PlayedGame], Problem> {
        load(file).mapError { Problem(description: "\(file.shownPath): \($0.reason)") }
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

    /// Waits until every finished game handed over has been written.
    public func flush() { writer.wait() }

    private func add(_ game: PlayedGame) {
        let games = kept.withValue { games -> [PlayedGame] in
            games.append(game)
            if games.count > Self.capacity { games.removeFirst(games.count - Self.capacity) }
            return games
        }
        guard let path else { return }
        writer.submit { [failed, recovered, failures] in
            let failure: (reason: String, kind: Int32?)
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(Saved(version: Saved.currentVersion, games: games))
                try TextFile.write(bytes: Array(data), to: path)
                if let count = failures.withValue({ $0.succeeded() }) { recovered(count) }
                return
            } catch let error as TextFileError {
                failure = (error.reason, error.code)
            } catch {
                failure = ("\(error)", nil)
            }
            if failures.withValue({ $0.failed(kind: failure.kind) }) { failed("\(path): \(failure.reason)") }
        }
    }

    private static func load(_ path: String) -> Result<[PlayedGame], Unreadable> {
        var status = stat()
        if lstat(path, &status) != 0 && errno == ENOENT { return .success([]) }
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            return .failure(Unreadable(error.reason))
        }
        if let (line, scalar) = DecodingError.controlCharacterInText(text) {
            return .failure(Unreadable("damaged JSON: the control character \(scalar.codePoint) stands raw inside text on line \(line)"))
        }
        let saved: Saved
        do {
            saved = try JSONDecoder().decode(Saved.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            return .failure(Unreadable(error.problem))
        } catch {
            return .failure(Unreadable("unreadable JSON"))
        }
        guard saved.version == Saved.currentVersion else {
            return .failure(Unreadable("format version \(saved.version), expected \(Saved.currentVersion)"))
        }
        for (index, game) in saved.games.enumerated() {
            if let problem = game.problem() { return .failure(Unreadable("games[\(index)]: \(problem)")) }
        }
        return .success(saved.games)
    }

    private struct Unreadable: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
