@testable import BoardAPI
import Foundation
import Presentation
import Reactive
import Testing
import TicTacToe

@Suite("Game history")
struct HistoryTests {
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
        let folder = NSTemporaryDirectory() + "history-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.json"
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let viewModel = GameViewModel(positions: presses, scheduler: scheduler)
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

    @Test("a history that cannot be written says so once per kind and once when it works again; what a crash left is removed at start")
    func failingWrites() throws {
        let folder = NSTemporaryDirectory() + "history-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.json"
        try Data("{\"version\":1,\"ga".utf8).write(to: URL(fileURLWithPath: file + ".tmp"))
        let said = Protected<[String]>([])
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let viewModel = GameViewModel(positions: presses, scheduler: scheduler)
        let history = GameHistory(
            file: file, failed: { failure in said.withValue { $0.append(failure) } },
            recovered: { count in said.withValue { $0.append("works again after \(count)") } })
        #expect(!FileManager.default.fileExists(atPath: file + ".tmp"), "the crash's leftover is still there")
        let recording = history.record(viewModel, clock: { Self.at(0) })
        func playAGame() {
            for cell in [7, 1, 8, 2, 9] { input.send(Position(keypadKey: cell)!) }
            viewModel.newGame.apply()
            history.flush()
        }
        // A directory at the temporary name: unlink cannot remove it, so every write fails.
        try FileManager.default.createDirectory(atPath: file + ".tmp", withIntermediateDirectories: false)
        for _ in 0..<3 { playAGame() }
        #expect(!FileManager.default.fileExists(atPath: file))
        try FileManager.default.removeItem(atPath: file + ".tmp")
        playAGame()
        recording.dispose()
        #expect(said.value.count == 2, "\(said.value)")
        #expect(said.value.first?.hasPrefix("\(file): cannot write the file: cannot remove the old") == true, "\(said.value)")
        #expect(said.value.last == "works again after 3")
        #expect(GameHistory(file: file).games.count == 4, "the games kept in memory were all written at last")
    }

    @Test("an unreadable history file is named with its problem and the history starts empty", arguments: [
        ("not JSON", "damaged or truncated JSON"),
        (#"{"version":9,"games":[]}"#, "version 9"),
        (#"{"version":1,"games":[{"opponent":5}]}"#, "games[0].opponent"),
        ("{\"version\":1,\"games\":[\"\u{01}\"]}", "raw control character"),
    ])
    func unreadable(contents: String, words: String) throws {
        let folder = NSTemporaryDirectory() + "history-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/history.json"))
        let history = GameHistory(file: folder + "/history.json")
        #expect(history.games.isEmpty)
        #expect(history.problem?.contains(words) == true, "\(history.problem ?? "no problem")")
    }
}
