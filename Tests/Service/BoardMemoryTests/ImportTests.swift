import Basics
import BoardAPI
@testable import BoardMemory
import BoardProtocol
import Foundation
import TestSupport
import Testing
import TicTacToe
import ViewModel

/// Release 0.4's files become the first database, nothing lost: real files from that release
/// (Fixtures/release-0.4.0: a game in play against the computer, a learner taught six games,
/// nine finished games).
@Suite("Importing release 0.4's files")
struct ImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/release-0.4.0").path

    /// A state directory holding copies of the fixtures named.
    static func folder(with names: [String]) throws -> String {
        let folder = try temporaryFolder()
        for name in names { try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: folder + "/" + name) }
        return folder
    }

    @Test("a board of release 0.4 starts with its game, scores, learner and every finished game; the old files are kept, renamed")
    func release04() throws {
        let folder = try Self.folder(with: ["state.json", "history.jsonl"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (expected, _) = try LegacyFiles.readState(folder + "/state.json").get()
        #expect(expected.opponent == .computer(.random) || expected.opponent.name == "computer-2")
        #expect(expected.learner.record.games == 6 && expected.learner.boxes.count == 14)
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.source == .files && finding.games == 9 && finding.problems.isEmpty)
        let (memory, notes) = try BoardMemory.open(directory: folder, after: finding)
        #expect(notes.contains { $0.contains("imported the saved game and 9 finished games") }, "\(notes)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { !$0.hasPrefix(BoardMemory.fileName) }
            == ["history.jsonl.imported", "state.json.imported"])
        let games = try memory.games(.all)
        #expect(games.count == 9 && games.first?.opponent == "two-players" && games.last?.opponent == "computer-2")
        #expect(games.first?.names == ViewState.Names(x: "Alice", o: "Bob"))
        let restarted = try BoardMemory.inspect(directory: folder)
        #expect(restarted.source == .database && restarted.snapshot == expected && restarted.games == 9)
        // The next start imports nothing again.
        let (_, later) = try BoardMemory.open(directory: folder, after: restarted)
        #expect(later.isEmpty)
    }

    @Test("the history.json of the versions before the journal is imported when there is no journal")
    func olderHistory() throws {
        let folder = try Self.folder(with: ["state.json", "history.json"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.games == 5 && finding.problems.isEmpty)
        let (memory, _) = try BoardMemory.open(directory: folder, after: finding)
        #expect(try memory.gameCount() == 5)
        #expect(FileManager.default.fileExists(atPath: folder + "/history.json.imported"))
    }

    @Test("a file that cannot be used is set aside, as release 0.4 did, and the rest imported")
    func damagedFile() throws {
        let folder = try Self.folder(with: ["history.jsonl"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("{\"version\": 3, \"cells\": [".utf8).write(to: URL(fileURLWithPath: folder + "/state.json"))
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.problems.count == 1 && finding.problems[0].hasPrefix(folder + "/state.json is not a valid saved game"), "\(finding.problems)")
        #expect(finding.snapshot == nil && finding.games == 9)
        let (memory, notes) = try BoardMemory.open(directory: folder, after: finding)
        #expect(notes.contains { $0.contains("state.json") && $0.contains("moved it to") && $0.contains("not imported") }, "\(notes)")
        #expect(try memory.gameCount() == 9)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasPrefix("state.json.corrupt-") })
    }

    @Test("a torn last line is dropped; games past the last the state names (a save cut short) are left out, with notes")
    func reconciled() throws {
        let folder = try Self.folder(with: ["state.json", "history.jsonl"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = try String(contentsOfFile: folder + "/history.jsonl", encoding: .utf8)
        let lines = journal.split(separator: "\n")
        // The state names game 7: games 8 and 9 were a save's half; and a line torn after them.
        var state = try String(contentsOfFile: folder + "/state.json", encoding: .utf8)
        state = state.replacingOccurrences(of: "\"lastGame\" : 9", with: "\"lastGame\" : 7")
        try Data(state.utf8).write(to: URL(fileURLWithPath: folder + "/state.json"))
        try Data((journal + String(lines[1].prefix(30))).utf8).write(to: URL(fileURLWithPath: folder + "/history.jsonl"))
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.games == 7 && finding.problems.isEmpty)
        #expect(finding.notes.contains { $0.contains("cut short") } && finding.notes.contains { $0.contains("left out game 8, 9") }, "\(finding.notes)")
    }

    @Test("release 0.4's files written after the import (0.4 ran here again) are named, kept apart and not taken for the imported ones")
    func writtenSince() throws {
        let folder = try Self.folder(with: ["state.json", "history.jsonl"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try BoardMemory.open(directory: folder, after: try BoardMemory.inspect(directory: folder))
        // 0.4 again: its files back, one with a game more.
        try FileManager.default.copyItem(atPath: folder + "/state.json.imported", toPath: folder + "/state.json")
        let journal = try String(contentsOfFile: folder + "/history.jsonl.imported", encoding: .utf8)
        try Data((journal + journal.split(separator: "\n").last.map { String($0).replacingOccurrences(of: "\"game\":9", with: "\"game\":10") + "\n" }!).utf8)
            .write(to: URL(fileURLWithPath: folder + "/history.jsonl"))
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.notes.count == 1 && finding.notes[0].hasPrefix(folder + "/history.jsonl appeared after"), "\(finding.notes)")
        let (memory, notes) = try BoardMemory.open(directory: folder, after: finding)
        #expect(notes.contains { $0.contains("history.jsonl appeared after") && $0.contains("not imported, kept as") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("kept \(folder)/state.json as") }, "the same state.json is the imported one: \(notes)")
        #expect(try memory.gameCount() == 9)
    }

    @Test("leftovers of release 0.4's cut saves are removed; files left beside a database by a cut import are renamed, not imported twice")
    func leftovers() throws {
        let folder = try Self.folder(with: ["state.json", "history.jsonl"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("half".utf8).write(to: URL(fileURLWithPath: folder + "/state.json.tmp-3"))
        let (memory, notes) = try BoardMemory.open(directory: folder, after: try BoardMemory.inspect(directory: folder))
        #expect(notes.contains { $0.contains("state.json.tmp-3") })
        #expect(try memory.gameCount() == 9)
        // A crash after the database's rename, before the files': they are back under their names.
        for name in ["state.json", "history.jsonl"] {
            try FileManager.default.moveItem(atPath: folder + "/" + name + ".imported", toPath: folder + "/" + name)
        }
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.source == .database)
        let (again, later) = try BoardMemory.open(directory: folder, after: finding)
        #expect(try again.gameCount() == 9)
        #expect(later.count == 2 && later.allSatisfy { $0.hasPrefix("kept ") }, "\(later)")
    }
}
