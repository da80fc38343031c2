import Basics
import BoardProtocol
import BoardAPI
@testable import BoardMemory
import Foundation
import ViewModel
import Testing
import TicTacToe

/// Release 0.4's history journal (`history.jsonl`), read to import it: its lines, a torn last
/// line, damage.
@Suite("History journal of release 0.4")
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

    /// A game's line as release 0.4 wrote it, with its newline.
    static func line(_ number: Int, _ played: PlayedGame = game) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(HistoryJournal.Record(game: number, played: played)), as: UTF8.self) + "\n"
    }

    static func journal(_ numbers: [Int]) throws -> String {
        try numbers.reduce("{\"version\":2}\n") { text, number in text + (try line(number)) }
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
        #expect(try Self.line(1).utf8.count < 512)
    }

    @Test("a last line cut short (a power cut during an append) is dropped and said, not a refusal",
          arguments: [1, 40, 200])
    func tornLastLine(kept: Int) throws {
        let whole = try Self.journal([1, 2])
        let next = try Self.line(3)
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
}
