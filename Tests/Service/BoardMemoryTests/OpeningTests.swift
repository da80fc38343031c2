import Basics
import BoardAPI
@testable import BoardMemory
import BoardProtocol
import CSQLite
import Foundation
import TestSupport
import Testing
import TicTacToe
import ViewModel

/// What a start finds in a state directory, and what it does with what it cannot use.
@Suite("Opening the board's memory")
struct OpeningTests {
    /// A folder holding a database with a game and two finished games.
    static func folderWithGames() throws -> (folder: String, path: String, snapshot: GameSnapshot) {
        let folder = try temporaryFolder()
        let snapshot = GameSnapshot(board: try Board().playing([p(1, 1)]), nextStarter: .o, score: Score(xWins: 2, oWins: 0, draws: 0))
        try openedMemory(in: folder).commit(snapshot, games: [finishedGame(), finishedGame()])
        return (folder, BoardMemory.path(in: folder), snapshot)
    }

    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test("nothing there: inspect makes nothing; open makes the directory and an empty database, which a restart finds")
    func fresh() throws {
        let folder = try temporaryFolder() + "/state/deeper"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.source == .nothing && finding.snapshot == nil && finding.problems.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder), "inspect only reads")
        let (memory, notes) = try BoardMemory.open(directory: folder, after: finding)
        #expect(notes.isEmpty && memory.path == BoardMemory.path(in: folder))
        let again = try BoardMemory.inspect(directory: folder)
        #expect(again.source == .database && again.snapshot == nil && again.games == 0 && again.problems.isEmpty)
    }

    @Test("a database that cannot be used is named with its problem, left in place by inspect, then set aside whole by open", arguments: [
        ("not SQLite at all, just words", "cannot be used: file is not a database"),
        ("", "holds no board's data"),
        ("truncated", "cannot be used"),
        ("foreign", "is not the board's database (application id 0)"),
        ("foreign-tables", "holds the tables"),
        ("bad-row", "the game's cells are"),
        ("bad-beads", "a box row has a column no board writes"),
        ("bad-game", "game 1: moves[4].cell is 1, which is taken"),
        ("out-of-range", "a score outside 0...4294967295"),
        ("scores-without-game", "scores or a learner without a game"),
        ("damaged-page", "cannot be used"),
        // Found by the database target's hour (a layout number is a signed 32-bit integer): the
        // start read it as an earlier layout and indexed the migrations with it, and crashed.
        ("negative-layout", "is laid out as no board lays a database out (layout -1)"),
        ("negative-layout-of-an-empty-file", "is laid out as no board lays a database out (layout -2147483648)"),
    ])
    func unusable(kind: String, words: String) throws {
        let (folder, path, _) = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.damage(path, kind)
        let finding = try BoardMemory.inspect(directory: folder)
        let problem = try #require(finding.problems.first, "\(kind) was used")
        #expect(problem.hasPrefix(path) && problem.contains(words), "\(problem)")
        #expect(finding.snapshot == nil)
        #expect(FileManager.default.fileExists(atPath: path), "inspect only reads")
        let (memory, notes) = try BoardMemory.open(directory: folder, after: finding)
        #expect(notes.count == 1 && notes[0].contains("moved it to \(path).corrupt-") && notes[0].contains("started afresh"), "\(notes)")
        let aside = try Self.files(in: folder).filter { $0.hasPrefix(BoardMemory.fileName + ".corrupt-") }
        #expect(aside.count == 1 || aside.count == 2, "the file, and its log if it had one: \(aside)")
        #expect(try memory.gameCount() == 0)
        let again = try BoardMemory.inspect(directory: folder)
        #expect(again.problems.isEmpty && again.source == .database && again.games == 0)
    }

    /// Damages the database at `path` the way `kind` names.
    static func damage(_ path: String, _ kind: String) throws {
        func run(_ sql: String) throws {
            let database = try Database(path: path, mode: .readWrite)
            try database.execute(sql)
        }
        switch kind {
        case "truncated":
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2 + 100).write(to: URL(fileURLWithPath: path))
            unlink(path + "-wal")
        case "foreign": try run("PRAGMA application_id = 0; PRAGMA user_version = 3")
        case "foreign-tables": try run("CREATE TABLE cats (name TEXT)")
        case "negative-layout": try run("PRAGMA user_version = -1")
        case "negative-layout-of-an-empty-file":
            unlink(path)
            unlink(path + "-wal")
            unlink(path + "-shm")
            try Database(path: path, mode: .create).execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = -2147483648")
        case "bad-row": try run("UPDATE game SET cells = 'XXXXXXXX?'")
        case "bad-beads": try run("INSERT INTO boxes (position, beads) VALUES ('.........', 'lots')")
        case "bad-game": try run("UPDATE games SET moves = 'X7@2026-11-23T22:41:05Z O1@2026-11-23T22:41:05Z X8@2026-11-23T22:41:05Z O2@2026-11-23T22:41:05Z X1@2026-11-23T22:41:05Z' WHERE number = 1")
        case "out-of-range": try run("UPDATE scores SET draws = 4294967296")
        case "scores-without-game": try run("DELETE FROM game")
        case "damaged-page":
            // A page in the middle overwritten: what a failing card gives back.
            try run("PRAGMA wal_checkpoint(TRUNCATE)")
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.seek(toOffset: 4096 * 2)
            handle.write(Data(repeating: 0xA5, count: 12))
            try handle.close()
        default:
            try Data(kind.utf8).write(to: URL(fileURLWithPath: path))
            unlink(path + "-wal")
            unlink(path + "-shm")
        }
    }

    @Test("a database of a newer version is refused, never set aside: a downgrade loses nothing")
    func newer() throws {
        let (folder, path, _) = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Database(path: path, mode: .readWrite).execute("PRAGMA user_version = \(Schema.version + 1)")
        do {
            _ = try BoardMemory.inspect(directory: folder)
            Issue.record("a newer database was read")
        } catch {
            guard case .newer(path, Schema.version + 1) = error else {
                Issue.record("\(error)")
                return
            }
            #expect("\(error)".contains("written by a newer version of the board") && "\(error)".contains("install that version again"))
        }
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("a database at every earlier layout is migrated in place, keeping what it holds")
    func migrations() throws {
        for version in 0..<Schema.version {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let database = try Database(path: BoardMemory.path(in: folder), mode: .create)
            for step in Schema.migrations[..<version] { try database.execute(step) }
            try database.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(version)")
            let finding = try BoardMemory.inspect(directory: folder)
            #expect(finding.problems.isEmpty, "version \(version): \(finding.problems)")
            #expect(try database.value("PRAGMA user_version")?.integer == Schema.version)
            let unmigrated = try BoardMemory.inspect(directory: folder, migrating: false)
            #expect(unmigrated.problems.isEmpty)
        }
    }

    @Test("a board of layout 1 (release 0.5) with a taught learner: migrated, the learner the same, beads and record, and its first (no resets)")
    func learnerOfLayoutOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let learner = taughtLearner(games: 37)
        let database = try Database(path: BoardMemory.path(in: folder), mode: .create)
        // Written as release 0.5 wrote it, row by row.
        try database.execute(Schema.migrations[0])
        try database.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 1")
        try database.run("INSERT INTO game (id, starter, next_starter, opponent, cells, moves) VALUES (1, 'X', 'O', 'learner', '.........', NULL)")
        try database.run(
            "INSERT INTO learner (id, refills, games, tens) VALUES (1, ?, ?, ?)",
            [.integer(learner.refills), .integer(learner.record.games), .text(RowText.tens(learner.record.tens.map { [$0.won, $0.drew, $0.lost] }))])
        for (key, box) in learner.boxes {
            try database.run("INSERT INTO boxes (position, beads) VALUES (?, ?)", [.text(key.cells), .text(RowText.numbers(box.beads))])
        }
        // Read as it stands first, as check-state reads a board this version has not started yet.
        let asItStands = try BoardMemory.inspect(directory: folder, migrating: false)
        #expect(asItStands.problems.isEmpty, "\(asItStands.problems)")
        #expect(asItStands.snapshot?.learner.digest == learner.digest && asItStands.snapshot?.learner.resets == 0)
        #expect(try database.value("PRAGMA user_version")?.integer == 1, "changing nothing")
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.problems.isEmpty, "\(finding.problems)")
        let read = try #require(finding.snapshot?.learner)
        #expect(read.digest == learner.digest && read.record == learner.record && read.refills == learner.refills)
        #expect(read.resets == 0)
        #expect(try database.value("PRAGMA user_version")?.integer == Schema.version)
        #expect(try database.value("SELECT resets FROM learner")?.integer == 0)
        // And a count of resets no board writes is refused by the table itself.
        #expect(throws: DatabaseError.self) { try database.run("UPDATE learner SET resets = -1") }
        #expect(throws: StateFileProblem.self) { try SavedLearner(boxes: [:], refills: 0, games: 0, tens: [], resets: Int(Int32.max) + 1).learner() }
    }

    @Test("a directory at the database's name is unusable and set aside; a file that cannot be moved aside is kept and the board saves nothing over it")
    func cannotSetAside() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: BoardMemory.path(in: folder), withIntermediateDirectories: false)
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.problems == ["\(BoardMemory.path(in: folder)) is not a file"])
        let (memory, notes) = try BoardMemory.open(directory: folder, after: finding, move: { _, _ in errno = EBUSY; return -1 })
        #expect(memory.path == nil)
        #expect(notes.count == 1 && notes[0].contains("could not be moved aside") && notes[0].contains("WITHOUT SAVING"), "\(notes)")
        try memory.commit(GameSnapshot(board: try Board().playing([p(1, 1)])))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: BoardMemory.path(in: folder), isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("a state directory reached through a link (systemd's DynamicUser makes /var/lib/tictactoe one) opens; a link at the database's name is not followed")
    func linkedDirectory() throws {
        let (folder, path, snapshot) = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
        defer { unlink(link) }
        let finding = try BoardMemory.inspect(directory: link)
        #expect(finding.problems.isEmpty && finding.snapshot == snapshot, "\(finding.problems)")
        let (memory, notes) = try BoardMemory.open(directory: link, after: finding)
        #expect(notes.isEmpty && memory.path == BoardMemory.path(in: link))
        try memory.commit(GameSnapshot(board: try Board().playing([p(0, 0)])))
        memory.close()
        // A link planted at the database's name, to a good database elsewhere: refused, set aside.
        let elsewhere = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: elsewhere.folder) }
        try FileManager.default.moveItem(atPath: path, toPath: path + ".real")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere.path)
        let planted = try BoardMemory.inspect(directory: folder)
        #expect(planted.problems == ["\(path) is not a file"], "\(planted.problems)")
    }

    @Test("a log left without its database (the database moved away after a crash) is set aside, never replayed into the next one")
    func orphanedLog() throws {
        let (folder, path, _) = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A crash's leftovers: the database and a log holding commits not yet in it.
        let memory = try BoardMemory.open(directory: folder, after: try BoardMemory.inspect(directory: folder)).memory
        try memory.commit(GameSnapshot(board: try Board().playing([p(0, 0)])), games: [finishedGame()])
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: folder + "/kept-wal")
        memory.close()
        try FileManager.default.moveItem(atPath: path, toPath: folder + "/moved-away.sqlite3")
        try FileManager.default.moveItem(atPath: folder + "/kept-wal", toPath: path + "-wal")
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.source == .nothing && finding.problems.first?.contains("is a log without its database") == true, "\(finding.problems)")
        let (fresh, notes) = try BoardMemory.open(directory: folder, after: finding)
        #expect(notes.contains { $0.contains("was a log without its database; moved it to \(path)-wal.orphan-") }, "\(notes)")
        #expect(try fresh.gameCount() == 0 && BoardMemory.inspect(directory: folder).snapshot == nil, "the old log was replayed")
    }

    @Test("a database that is the board's in name only is refused: a trigger added, its games numbered with gaps or too many", arguments: [
        ("CREATE TRIGGER forget AFTER INSERT ON games BEGIN DELETE FROM games WHERE number < new.number; END", "is not laid out as the board's"),
        ("UPDATE games SET number = 9223372036854775807 WHERE number = 2", "numbers its finished games with gaps"),
        ("WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM n WHERE i < 20002) INSERT INTO games SELECT i, opponent, x_name, o_name, starter, started, finished, outcome, carried_over, moves FROM n, (SELECT * FROM games LIMIT 1)", "more than the 20000 a board keeps"),
    ])
    func inNameOnly(sql: String, words: String) throws {
        let (folder, path, _) = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Database(path: path, mode: .readWrite).execute(sql)
        let problem = try #require(try BoardMemory.inspect(directory: folder).problems.first, "used")
        #expect(problem.contains(words), "\(problem)")
    }

    @Test("a log or index that is not a file makes the database unusable, set aside with it")
    func logNotAFile() throws {
        let (folder, path, _) = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: path + "-shm", withIntermediateDirectories: false)
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.problems == ["\(path)-shm is not a file"])
        let (memory, _) = try BoardMemory.open(directory: folder, after: finding)
        try memory.commit(GameSnapshot(board: try Board().playing([p(0, 0)])))
        #expect(try BoardMemory.inspect(directory: folder).problems.isEmpty)
    }

    @Test("check-state's reading changes nothing: no migration, no log files made, a read-only file read")
    func readOnly() throws {
        let (folder, path, snapshot) = try Self.folderWithGames()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(path, 0o444)
        let finding = try BoardMemory.inspect(directory: folder, migrating: false)
        #expect(finding.snapshot == snapshot && finding.games == 2)
    }
}
