import Basics
import BoardProtocol
@testable import BoardAPI
import Foundation
import ViewModel
import Testing
import TicTacToe

/// The history's journal (`history.jsonl`): its lines, a torn last line, damage, the drop of
/// games the state does not name, the migration of an older `history.json`, and compaction.
@Suite("History journal")
struct HistoryJournalTests {
    /// X wins along the top row, as the recorder writes a game.
    static let game: PlayedGame = {
        let cells = [7, 1, 8, 2, 9]
        var moves: [PlayedGame.Move] = []
        for (index, cell) in cells.enumerated() {
            moves.append(PlayedGame.Move(player: index % 2 == 0 ? "X" : "O", cell: cell, at: "2026-11-23T22:41:05Z"))
        }
        return PlayedGame(
            opponent: "two-players", names: ViewState.Names(PlayerNames(x: "Alice", o: "Bob")), starter: "X",
            started: "2026-11-23T22:41:05Z", finished: "2026-11-23T22:42:00Z", outcome: "x-wins", carriedOver: nil, moves: moves)
    }()

    static func journal(_ numbers: [Int]) throws -> String {
        String(decoding: try HistoryJournal.contents(numbers.map { HistoryJournal.Record(game: $0, played: game) }), as: UTF8.self)
    }

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func numbers(in path: String) throws -> [Int] {
        guard case .success(let parsed) = HistoryJournal.parse(try String(contentsOfFile: path, encoding: .utf8)) else { return [-1] }
        return parsed.records.map(\.game)
    }

    @Test("a journal reads back as written: a header line, then one line a game, each a few hundred bytes")
    func roundTrip() throws {
        let text = try Self.journal([3, 4, 9])
        #expect(text.hasPrefix("{\"version\":2}\n{\"game\":3,\"played\":{"))
        let parsed = try #require(try? HistoryJournal.parse(text).get())
        #expect(parsed.records.map(\.game) == [3, 4, 9] && parsed.records.allSatisfy { $0.played == Self.game })
        #expect(parsed.torn == nil && parsed.wholeBytes == text.utf8.count)
        #expect(try HistoryJournal.line(HistoryJournal.Record(game: 1, played: Self.game)).count < 512)
    }

    @Test("a last line cut short (a power cut during an append) is dropped and said, not a refusal",
          arguments: [1, 40, 200])
    func tornLastLine(kept: Int) throws {
        let whole = try Self.journal([1, 2])
        let next = String(decoding: try HistoryJournal.line(HistoryJournal.Record(game: 3, played: Self.game)), as: UTF8.self)
        let torn = whole + String(next.prefix(min(kept, next.count - 1)))
        let parsed = try #require(try? HistoryJournal.parse(torn).get())
        #expect(parsed.records.map(\.game) == [1, 2])
        #expect(parsed.wholeBytes == whole.utf8.count)
        #expect(parsed.torn?.contains("was cut short") == true)
    }

    @Test("any other damage refuses the whole file, naming the line", arguments: [
        ("", "no first line"),
        ("{\"version\":2}", "no first line"),
        ("{\"version\":1}\n", "format version 1, expected 2"),
        ("{\"games\":[]}\n", "line 1 is not"),
        ("{\"version\":2}\n{\"game\":1,\"pla\n{\"game\":2}\n", "line 2:"),
        ("{\"version\":2}\nnot json\n", "line 2:"),
        ("{\"version\":2}\n\n", "line 2:"),
        ("{\"version\":2}\n{\"game\":1,\"played\":{\"opponent\":\"two-players\"}}\n", "line 2:"),
    ])
    func damaged(text: String, words: String) {
        guard case .failure(let problem) = HistoryJournal.parse(text) else {
            Issue.record("accepted: \(text.debugDescription)")
            return
        }
        #expect(problem.reason.contains(words), "\(problem.reason)")
    }

    @Test("a damaged last line that is whole, numbers that do not rise, and a game the board could not have played are refused")
    func damagedWholeLines() throws {
        let base = try Self.journal([1])
        let cases: [(String, String)] = [
            (base + "{\"game\":2,\"played\":{}}\n", "line 3:"),
            (try Self.journal([2, 2]), "line 3: game 2 after game 2; the numbers must rise"),
            (try Self.journal([5, 3]), "line 3: game 3 after game 5"),
            // A number a board could never reach, which the next game's number would overflow.
            (try Self.journal([1, Int.max]), "line 3: game \(Int.max); a game's number is 1 to 4294967295"),
            (try Self.journal([0]), "line 2: game 0"),
            (base.replacingOccurrences(of: "\"cell\":9", with: "\"cell\":1"), "line 2: moves[4].cell is 1, which is taken"),
            (base.replacingOccurrences(of: "Alice", with: "Al\\u001bice"), "line 2: names.x is"),
        ]
        for (text, words) in cases {
            guard case .failure(let problem) = HistoryJournal.parse(text) else {
                Issue.record("accepted: \(text.debugDescription)")
                continue
            }
            #expect(problem.reason.contains(words), "\(problem.reason)")
            #expect(!problem.reason.unicodeScalars.contains { $0.isInvisible }, "raw text in \(problem.reason.debugDescription)")
        }
    }

    @Test("the history drops a torn last line with a note, keeps the rest, and makes the file whole at its next write")
    func tornFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.jsonl"
        try Self.write(try Self.journal([1, 2]) + "{\"game\":3,\"pla", to: file)
        let history = GameHistory(file: file, lastGameOfState: 2)
        #expect(history.problem == nil)
        #expect(history.games.count == 2 && history.lastGame == 2)
        #expect(history.notes.count == 1 && history.notes[0].contains("cut short") == true, "\(history.notes)")
        try history.writePending()
        #expect(try String(contentsOfFile: file, encoding: .utf8) == (try Self.journal([1, 2])))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["history.jsonl"], "something was set aside")
        // The state names the torn game: not a cut save (the journal is flushed first) but a card
        // that lost what it had; the note says the history lacks it, not that it was never saved.
        try Self.write(try Self.journal([1, 2]) + "{\"game\":3,\"pla", to: file)
        let damaged = GameHistory(file: file, lastGameOfState: 3)
        #expect(damaged.games.count == 2)
        #expect(damaged.notes.count == 1 && damaged.notes[0].contains("the history lacks game 3"), "\(damaged.notes)")
    }

    @Test("a damaged journal is set aside and the history starts afresh; one that cannot be moved is never written over")
    func damagedFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.jsonl"
        let second = String(decoding: try HistoryJournal.line(HistoryJournal.Record(game: 2, played: Self.game)), as: UTF8.self)
        let damaged = try Self.journal([1]) + "garbage\n" + second
        try Self.write(damaged, to: file)
        let kept = GameHistory(file: file, move: { _, _ in
            errno = EPERM
            return -1
        })
        #expect(kept.path == nil && kept.problem?.contains("line 3:") == true, "\(kept.problem ?? "")")
        try kept.writePending()
        #expect(try String(contentsOfFile: file, encoding: .utf8) == damaged, "written over")
        let history = GameHistory(file: file)
        #expect(history.games.isEmpty && history.path == file)
        #expect(history.problem?.hasPrefix("\(file): line 3:") == true, "\(history.problem ?? "")")
        let asides = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("history.jsonl.corrupt-") }
        #expect(asides.count == 1)
        #expect(try asides.first.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) } == damaged)
    }

    @Test("games numbered past the last game the state names (a save cut short between the two files) are dropped, with a note")
    func dropsWhatTheStateDoesNotName() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.jsonl"
        try Self.write(try Self.journal([1, 2, 3]), to: file)
        #expect(try GameHistory.read(file, lastGameOfState: 2).get().count == 2, "check-state reads what the board keeps")
        #expect(try GameHistory.read(file).get().count == 3, "a state that names no game drops nothing")
        let history = GameHistory(file: file, lastGameOfState: 2)
        #expect(history.games.count == 2 && history.lastGame == 2)
        #expect(history.notes.contains { $0.contains("dropped game 3") }, "\(history.notes)")
        try history.writePending()
        #expect(try Self.numbers(in: file) == [1, 2])
        // A state naming a game the journal lacks (a history set aside since): numbers go on after it.
        let behind = GameHistory(file: file, lastGameOfState: 7)
        #expect(behind.games.count == 2 && behind.lastGame == 7 && behind.notes.isEmpty)
    }

    @Test("an older version's history.json is read, moved into the journal at the first write, and removed")
    func migration() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (file, legacy) = (folder + "/history.jsonl", folder + "/history.json")
        let encoded = try JSONEncoder().encode(GameHistory.Saved(version: 1, games: Array(repeating: Self.game, count: 3)))
        try encoded.write(to: URL(fileURLWithPath: legacy))
        #expect(try GameHistory.read(file, legacyFile: legacy).get().count == 3, "check-state reads it before it is moved")
        let history = GameHistory(file: file, legacyFile: legacy)
        #expect(history.games.count == 3 && history.lastGame == 3 && history.problem == nil)
        #expect(history.notes.contains { $0.contains("3 finished games, moved into") }, "\(history.notes)")
        try history.writePending()
        #expect(try Self.numbers(in: file) == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["history.jsonl"])
        #expect(GameHistory(file: file, legacyFile: legacy).games == history.games)
    }

    @Test("a finished game appends its line; past 200 games the journal is compacted to the newest 100")
    func appendsAndCompacts() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.jsonl"
        let (input, viewModel) = HistoryTests.board()
        let history = GameHistory(file: file)
        let recording = history.record(viewModel, clock: { WallTime(seconds: 1_795_000_000) })
        defer { recording.dispose() }
        func play(_ games: Int) {
            for _ in 0..<games {
                for cell in [7, 1, 8, 2, 9] { input.send(Position(keypadKey: cell)!) }
                viewModel.newGame.apply()
                history.flush()
            }
        }
        play(1)
        let first = try Data(contentsOf: URL(fileURLWithPath: file)).count
        play(1)
        let second = try Data(contentsOf: URL(fileURLWithPath: file)).count
        #expect(second - first < 512, "a game grew the file by \(second - first) bytes")
        play(HistoryJournal.compactRecords - 2)
        #expect(try Self.numbers(in: file).count == HistoryJournal.compactRecords)
        play(1)
        let newest = Array((HistoryJournal.compactRecords - GameHistory.capacity + 2)...(HistoryJournal.compactRecords + 1))
        #expect(try Self.numbers(in: file) == newest)
        #expect(GameHistory(file: file).games == history.games)
    }
}
