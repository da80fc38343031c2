import Basics
import BoardProtocol
@testable import BoardAPI
import Foundation
import ViewModel
import Reactive
import TestSupport
import Testing
import TicTacToe

@Suite("Game history")
struct HistoryTests {
    /// A view model on a test scheduler, and the input that presses its cells: what a history
    /// records in these tests.
    static func board() -> (Signal<Position>.Input, GameViewModel) {
        let (presses, input) = Signal<Position>.pipe()
        return (input, GameViewModel(positions: presses, scheduler: TestScheduler()))
    }

    static func at(_ seconds: Int) -> WallTime { WallTime(seconds: 1_795_000_000 + seconds) }

    @Test("wall times are UTC, ISO 8601, to the second")
    func wallTime() {
        #expect(WallTime(seconds: 0).description == "1970-01-01T00:00:00Z")
        #expect(WallTime(seconds: 1_795_473_665).description == "2026-11-23T22:41:05Z")
        #expect(WallTime(seconds: 1_709_197_507).description == "2024-02-29T09:05:07Z")
    }

    @Test("a game is recorded from its start to its outcome: every move, who made it and when")
    func recordsAGame() {
        var recorder = GameRecorder()
        var state = SessionState(snapshot: GameSnapshot(board: Board(starter: .x), nextStarter: .o, opponent: .person))
        let names = PlayerNames(x: "Alice", o: "Bob")
        #expect(recorder.take(.started(starter: .x), state: state, names: names, at: Self.at(0)) == nil)
        let moves = [7, 1, 8, 2, 9].map { Position(keypadKey: $0)! }
        var finished: PlayedGame?
        for (index, position) in moves.enumerated() {
            let mover = state.board.turn ?? .x
            _ = state.press(.person(position))
            #expect(recorder.take(.moved(mover, position), state: state, names: names, at: Self.at(index + 1)) == nil)
        }
        finished = recorder.take(.finished(state.board.outcome), state: state, names: names, at: Self.at(6))
        #expect(finished?.outcome == "x-wins")
        #expect(finished?.moves.map(\.cell) == [7, 1, 8, 2, 9])
        #expect(finished?.moves.map(\.player) == ["X", "O", "X", "O", "X"])
        #expect(finished?.moves.last?.at == Self.at(5).description)
        #expect(finished?.names == ViewState.Names(PlayerNames(x: "Alice", o: "Bob")))
        #expect(finished?.started == Self.at(0).description)
        #expect(finished?.finished == Self.at(6).description)
        #expect(finished?.carriedOver == nil)
    }

    @Test("a game carried over a restart keeps the marks already on the board, which were made before the record began")
    func carriedOver() throws {
        var recorder = GameRecorder()
        let restored = try Board(starter: .x).playing([Position(keypadKey: 5)!, Position(keypadKey: 1)!])
        var state = SessionState(snapshot: GameSnapshot(board: restored, nextStarter: .o, opponent: .computer(.random)))
        _ = state.press(.person(Position(keypadKey: 9)!))
        _ = recorder.take(.moved(.x, Position(keypadKey: 9)!), state: state, names: PlayerNames(), at: Self.at(1))
        _ = state.press(.computer(Position(keypadKey: 3)!))
        _ = recorder.take(.moved(.o, Position(keypadKey: 3)!), state: state, names: PlayerNames(), at: Self.at(2))
        for cell in [7, 2, 8, 4, 6] {
            let mover = state.board.turn ?? .x
            guard state.board.turn != nil else { break }
            _ = state.press(mover == .x ? .person(Position(keypadKey: cell)!) : .computer(Position(keypadKey: cell)!))
            _ = recorder.take(.moved(mover, Position(keypadKey: cell)!), state: state, names: PlayerNames(), at: Self.at(3))
        }
        let game = recorder.take(.finished(state.board.outcome), state: state, names: PlayerNames(), at: Self.at(9))
        #expect(game?.carriedOver == ["", "", "", "", "X", "", "O", "", ""])
        #expect(game?.moves.first?.cell == 9)
        #expect(game?.opponent == "computer-1")
    }

    @Test("the history keeps the last 100 games in its file, which a new history reads back")
    func keptInAFile() throws {
        let folder = try HistoryJournalTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.jsonl"
        let (input, viewModel) = HistoryTests.board()
        let history = GameHistory(file: file)
        #expect(history.problem == nil)
        let recording = history.record(viewModel, clock: { Self.at(0) })
        for game in 0..<105 {
            for cell in [7, 1, 8, 2, 9] { input.send(Position(keypadKey: cell)!) }
            viewModel.newGame.apply()
            #expect(history.games.count == min(game + 1, 100))
        }
        recording.dispose()
        history.flush()
        let reread = GameHistory(file: file)
        #expect(reread.problem == nil)
        #expect(reread.games == history.games)
        #expect(reread.games.count == 100)
        #expect(reread.games.last?.outcome == (reread.games.last?.starter == "X" ? "x-wins" : "o-wins"))
    }

    @Test("a history that cannot be written says so once per kind and once when it works again")
    func failingWrites() throws {
        let folder = try HistoryJournalTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.jsonl"
        let said = Protected<[String]>([])
        let (input, viewModel) = HistoryTests.board()
        let history = GameHistory(
            file: file, failed: { failure in said.withValue { $0.append(failure) } },
            recovered: { count in said.withValue { $0.append("works again after \(count)") } })
        let recording = history.record(viewModel, clock: { Self.at(0) })
        func playAGame() {
            for cell in [7, 1, 8, 2, 9] { input.send(Position(keypadKey: cell)!) }
            viewModel.newGame.apply()
            history.flush()
        }
        // A directory at the file's name: a rename cannot replace it, so every write fails.
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        for _ in 0..<3 { playAGame() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["history.jsonl"], "a failed write left something")
        try FileManager.default.removeItem(atPath: file)
        playAGame()
        recording.dispose()
        #expect(said.value.count == 2, "\(said.value)")
        #expect(said.value.first?.hasPrefix("\(file): cannot write the file: is a directory") == true, "\(said.value)")
        #expect(said.value.last == "works again after 3")
        #expect(GameHistory(file: file).games.count == 4, "the games kept in memory were all written at last")
    }

    @Test("an unreadable history.json of an older version is named with its problem and the history starts empty", arguments: [
        ("not JSON", "damaged or truncated JSON"),
        (#"{"version":9,"games":[]}"#, "version 9"),
        (#"{"version":1,"games":[{"opponent":5}]}"#, "games[0].opponent"),
        ("{\"version\":1,\"games\":[\"\u{01}\"]}", "the control character U+0001 stands raw inside text on line 1"),
        (#"{"version":1,"games":[{"x\[":1}]}"#, #""\[" on line 1 is no escape JSON has"#),
    ] + HistoryFileTests.namedProblems)
    func unreadable(contents: String, words: String) throws {
        let folder = try HistoryJournalTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/history.json"))
        let history = GameHistory(file: folder + "/history.jsonl", legacyFile: folder + "/history.json")
        #expect(history.games.isEmpty)
        #expect(history.problem?.contains(words) == true, "\(history.problem ?? "no problem")")
        #expect(history.problem?.hasPrefix(folder + "/history.json: ") == true)
        #expect(history.problem?.unicodeScalars.contains { $0.isInvisible } == false, "raw text in \(history.problem ?? "")")
        let asides = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("history.json.corrupt-") }
        #expect(asides.count == 1, "the unusable file was not set aside")
        #expect(asides.first.map { history.problem?.contains("moved it to \(folder)/\($0) and started the history afresh") == true } == true)
        #expect(try asides.first.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) } == contents)
    }
}

/// A history file as the board writes it, its games checked one field at a time, its
/// mutations, and one that cannot be set aside.
@Suite("History files, untrusted")
struct HistoryFileTests {
    /// One game as the recorder writes it: X wins along the top row; `change` edits it.
    static func file(_ change: (inout [String: Any]) -> Void = { _ in }) -> String {
        var game: [String: Any] = [
            "opponent": "two-players", "names": ["x": "Alice", "o": "Bob"], "starter": "X",
            "started": "2026-11-23T22:41:05Z", "finished": "2026-11-23T22:42:00Z", "outcome": "x-wins",
            "moves": [[7, "X"], [1, "O"], [8, "X"], [2, "O"], [9, "X"]].map { ["cell": $0[0], "player": $0[1], "at": "2026-11-23T22:41:05Z"] },
        ]
        change(&game)
        let data = try? JSONSerialization.data(withJSONObject: ["version": 1, "games": [game]], options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    /// A file with one field changed, and words its problem must contain.
    static let namedProblems: [(String, String)] = [
        (file { $0["carriedOver"] = ["X", "O", ""] }, "games[0]: carriedOver has 3 cells; a board has 9"),
        (file { $0["names"] = ["x": "Eve\nmallory: rm -rf", "o": "Bob"] }, "games[0]: names.x is \"EveU+000Amallory: rm -rf\"; it must be a name of at most 32 characters"),
        (file { $0["names"] = ["o": String(repeating: "o", count: 33)] }, "names.o is"),
        (file { $0["opponent"] = "computer-9" }, "games[0]: opponent is \"computer-9\"; it must be one of two-players"),
        (file { $0["starter"] = "Z" }, "starter is \"Z\""),
        (file { $0["outcome"] = "o-wins" }, "outcome is \"o-wins\", but the moves end in \"x-wins\""),
        (file { $0["outcome"] = "draw\u{1B}[2J" }, "outcome is \"drawU+001B[2J\""),
        (file { $0["finished"] = "yesterday" }, "finished is \"yesterday\"; it must be a UTC time"),
        (file { $0["moves"] = [] as [Any] }, "moves is empty"),
        (file { $0["moves"] = [["cell": 7, "player": "O", "at": "2026-11-23T22:41:05Z"]] }, "moves[0].player is \"O\"; it was X's turn"),
        (file { $0["moves"] = [["cell": 70, "player": "X", "at": "2026-11-23T22:41:05Z"]] }, "moves[0].cell is 70; it must be from 1 to 9"),
        (file { $0["moves"] = [7, 7].enumerated().map { ["cell": $1, "player": $0 == 0 ? "X" : "O", "at": "2026-11-23T22:41:05Z"] } },
         "moves[1].cell is 7, which is taken"),
        (file { $0["moves"] = [7, 1].enumerated().map { ["cell": $1, "player": $0 == 0 ? "X" : "O", "at": "2026-11-23T22:41:05Z"] } },
         "the moves leave the game unfinished"),
        (file { $0["carriedOver"] = ["X", "X", "X", "O", "O", "", "", "", ""] }, "games[0]: moves[0] comes after the game was over"),
        (file { $0["carriedOver"] = ["O", "O", "", "", "", "", "", "", ""] }, "carriedOver is no board a game reaches: X started but has 0 marks against 2"),
    ]

    @Test("the file the recorder writes is read back whole")
    func sample() {
        guard case .success(let games) = Self.read(Self.file()) else {
            Issue.record("the sample game was refused")
            return
        }
        #expect(games.count == 1 && games[0].problem() == nil)
    }

    private static func read(_ contents: String) -> Result<[PlayedGame], GameHistory.Problem> {
        let folder = NSTemporaryDirectory() + "history-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/history.json"))
        return GameHistory.read(folder + "/history.jsonl", legacyFile: folder + "/history.json")
    }

    /// How many mutated history files each run reads.
    static let cases = 3000

    @Test("every mutation of a history file is read as valid games or refused with a sentence; none crashes, none shows raw text", .soak)
    func mutated() throws {
        let folder = NSTemporaryDirectory() + "history-fuzz-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.json"
        // A game as the board writes one carried over a restart, against the computer: X's centre
        // was on the board, then the diagonal from top left.
        let seed = Self.file { game in
            game["opponent"] = "computer-2"
            game["carriedOver"] = ["", "", "", "", "X", "", "", "", ""]
            game["moves"] = [[8, "O"], [7, "X"], [9, "O"], [3, "X"]].map { ["cell": $0[0], "player": $0[1], "at": "2026-11-23T22:41:05Z"] }
        }
        guard case .success = Self.read(seed) else {
            Issue.record("the seed itself is refused")
            return
        }
        var mutator = Mutator(seed: seed, randomSeed: 0x4157)
        var read = 0, refused = 0
        for _ in 0..<Self.cases {
            try Data(mutator.next().utf8).write(to: URL(fileURLWithPath: file))
            switch GameHistory.read(folder + "/history.jsonl", legacyFile: file) {
            case .success(let games):
                read += 1
                #expect(games.allSatisfy { $0.problem() == nil })
                for game in games {
                    let shown = [game.names.x, game.names.o, game.finished, game.outcome].compactMap { $0 }.joined()
                    #expect(!shown.unicodeScalars.contains { $0.isInvisible }, "raw text accepted: \(shown.debugDescription)")
                    #expect(game.carriedOver.map { $0.count == 9 } ?? true)
                }
            case .failure(let problem):
                refused += 1
                #expect(problem.description.hasPrefix(file + ": "))
                #expect(!problem.description.unicodeScalars.contains { $0.isInvisible }, "raw text in: \(problem.description.debugDescription)")
            }
        }
        #expect(read > 0 && refused > Self.cases / 2, "\(read) read, \(refused) refused")
    }

    @Test("a history file that cannot be moved aside is never written over: the games are kept in memory only, and the problem says so")
    func keptInPlace() throws {
        let folder = try HistoryJournalTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.json"
        let damaged = Self.file { $0["carriedOver"] = ["X"] }
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: file))
        let history = GameHistory(file: folder + "/history.jsonl", legacyFile: file, move: { _, _ in
            errno = EPERM
            return -1
        })
        #expect(history.path == nil)
        #expect(history.problem?.contains("it could not be moved aside (cannot move it aside to \(file).corrupt-") == true, "\(history.problem ?? "")")
        #expect(history.problem?.hasSuffix("never written over it: move it away and restart the board") == true, "\(history.problem ?? "")")
        let (input, viewModel) = HistoryTests.board()
        let recording = history.record(viewModel, clock: { HistoryTests.at(0) })
        for cell in [7, 1, 8, 2, 9] { input.send(Position(keypadKey: cell)!) }
        viewModel.newGame.apply()
        history.flush()
        recording.dispose()
        #expect(history.games.count == 1, "the game was not kept in memory")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == damaged, "the damaged history was written over")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["history.json"])
    }
}
