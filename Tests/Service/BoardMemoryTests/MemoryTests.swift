import Basics
import BoardAPI
@testable import BoardMemory
import BoardProtocol
import Foundation
import Matchboxes
import TestSupport
import Testing
import TicTacToe
import ViewModel

/// A folder of the test's own, removed at the end by the caller.
func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "board-memory-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A finished game as the recorder writes it: X wins along the top row unless `cells` says otherwise.
func finishedGame(
    cells: [Int] = [7, 1, 8, 2, 9], outcome: String = "x-wins", opponent: String = "two-players", x: String? = "Alice", o: String? = "Bob",
    finished: String = "2026-11-23T22:42:00Z"
) -> PlayedGame {
    let moves = cells.enumerated().map { index, cell in PlayedGame.Move(player: index % 2 == 0 ? "X" : "O", cell: cell, at: "2026-11-23T22:41:05Z") }
    return PlayedGame(
        opponent: opponent, names: ViewState.Names(x: x, o: o), starter: "X", started: "2026-11-23T22:41:05Z", finished: finished,
        outcome: outcome, carriedOver: nil, moves: moves)
}

/// A learner taught `games` games against the computer at random, after `resets` resets.
func taughtLearner(games: Int = 50, resets: Int = 0) -> MatchboxLearner {
    var learner = MatchboxLearner(resets: resets)
    var computer = ComputerPlayer(level: .random, random: SeededRandom(seed: 5))
    var random = SeededRandom(seed: 6)
    for game in 0..<games { _ = TrainingGame.play(&learner, against: &computer, starter: game % 2 == 0 ? .x : .o, using: &random) }
    return learner
}

/// The memory a fresh state directory opens to, with what its start found.
func openedMemory(in folder: String) throws -> BoardMemory {
    try BoardMemory.open(directory: folder, after: try BoardMemory.inspect(directory: folder)).memory
}

@Suite("Board memory")
struct MemoryTests {
    @Test("a game, its moves, every pairing's score and a taught learner come back exactly after a restart")
    func roundTrip() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let moves = [p(1, 1), p(0, 0), p(2, 2)]
        let snapshot = GameSnapshot(
            board: try Board(starter: .o).playing(moves), nextStarter: .x, opponent: .learner,
            scores: [.learner: Score(xWins: 10, oWins: 30, draws: 10), .computer(.fallible): Score(xWins: 0, oWins: 3, draws: 4)],
            moves: MoveList(moves), learner: taughtLearner(resets: 3))
        try openedMemory(in: folder).commit(snapshot)
        let finding = try BoardMemory.inspect(directory: folder)
        #expect(finding.source == .database && finding.problems.isEmpty)
        #expect(finding.snapshot == snapshot)
    }

    @Test("a game against another board comes back with the pairing's game and each board's score; a pairing's game that is not one is refused")
    func otherBoard() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let kitchen = try #require(RemoteBoard(name: "kitchen", side: .x)), attic = try #require(RemoteBoard(name: "attic", side: .o))
        let moves = [p(1, 1), p(0, 0)]
        let snapshot = GameSnapshot(
            board: try Board(starter: .x).playing(moves), nextStarter: .o, opponent: .board(kitchen),
            scores: [.board(kitchen): Score(xWins: 2, oWins: 1, draws: 0), .board(attic): Score(draws: 3), .person: Score(xWins: 1)],
            moves: MoveList(moves), remoteGame: 7)
        try openedMemory(in: folder).commit(snapshot)
        let restored = try BoardMemory.inspect(directory: folder).snapshot
        #expect(restored == snapshot && restored?.remoteGame == 7)
        // Game 7 is X's to start, as the board's is; any other number, or none that a pairing has,
        // or the pairing's game without another board, or without the game's moves: refused.
        for change in [{ (saved: inout SavedState) in saved.opponent = "two-players" }, { $0.remoteGame = 8 }, { $0.remoteGame = Int.max },
                       { $0.remoteGame = -1 }, { $0.moves = nil }] {
            var saved = SavedState(snapshot)
            change(&saved)
            #expect(throws: StateFileProblem.self) { try saved.snapshot() }
        }
    }

    @Test("a finished game restores as finished, with its winning line; a fresh database restores no game")
    func finishedGameAndFresh() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let memory = try openedMemory(in: folder)
        #expect(try BoardMemory.inspect(directory: folder).snapshot == nil)
        let board = try Board().playing([p(0, 0), p(1, 0), p(2, 2), p(1, 1), p(0, 1), p(2, 0), p(0, 2)])
        try memory.commit(GameSnapshot(board: board))
        let restored = try BoardMemory.inspect(directory: folder).snapshot
        #expect(restored?.board == board)
        #expect(restored?.board.winningLines.map(\.kind) == [.row(0)])
    }

    @Test("a move rewrites the game's row alone: the scores and the learner's boxes are written only when they change")
    func onlyWhatChanged() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let opened = try openedMemory(in: folder)
        let learner = taughtLearner()
        var snapshot = GameSnapshot(board: Board(starter: .o), nextStarter: .x, opponent: .learner, scores: [.learner: Score(xWins: 1, oWins: 0, draws: 0)], learner: learner)
        try opened.commit(snapshot)
        let before = try opened.changes()
        snapshot.board = try snapshot.board.playing([p(1, 1)])
        snapshot.moves = MoveList([p(1, 1)])
        try opened.commit(snapshot)
        #expect(try opened.changes() - before == 1, "one row: the game's")
        // The learner learns at the game's end: only the boxes it changed are written.
        let taught = taughtLearner(games: 60)
        snapshot.learner = taught
        try opened.commit(snapshot)
        #expect(try BoardMemory.inspect(directory: folder).snapshot?.learner == taught)
        // A reset: the fresh learner, one reset more, and nothing of the old one's boxes.
        snapshot.learner = taught.reset()
        try opened.commit(snapshot)
        let reset = try BoardMemory.inspect(directory: folder).snapshot?.learner
        #expect(reset == taught.reset() && reset?.resets == 1 && reset?.boxes.isEmpty == true)
    }

    @Test("finished games go in with the snapshot that counts them, in one commit: a commit that fails leaves neither")
    func oneCommit() throws {
        let memory = try BoardMemory.inMemory()
        let start = GameSnapshot(board: try Board().playing([p(0, 0)]))
        try memory.commit(start)
        var end = start
        end.scores = [.person: Score(xWins: 1, oWins: 0, draws: 0)]
        try memory.withDatabase { database throws(DatabaseError) in
            try database.execute("CREATE TEMP TRIGGER refuse AFTER UPDATE ON scores BEGIN SELECT RAISE(ABORT, 'the card failed'); END")
            try database.execute("CREATE TEMP TRIGGER refuse_insert AFTER INSERT ON scores BEGIN SELECT RAISE(ABORT, 'the card failed'); END")
        }
        #expect(throws: DatabaseError.self) { try memory.commit(end, games: [finishedGame()]) }
        #expect(try memory.gameCount() == 0, "the game went with the failed commit")
        try memory.withDatabase { database throws(DatabaseError) in try database.execute("DROP TRIGGER refuse; DROP TRIGGER refuse_insert") }
        try memory.commit(end, games: [finishedGame()])
        #expect(try memory.gameCount() == 1)
        #expect(try memory.games(.all) == [finishedGame()])
    }

    @Test("the history answers every filter, the latest games that match, oldest first, at most the limit")
    func filters() throws {
        let memory = try BoardMemory.inMemory()
        let games = [
            finishedGame(opponent: "learner", x: "Alice", o: nil, finished: "2026-10-30T10:00:00Z"),
            finishedGame(cells: [1, 2, 3, 4, 5, 7, 6, 9, 8], outcome: "draw", x: "Grandma", o: "Alice", finished: "2026-11-01T09:00:00Z"),
            finishedGame(cells: [1, 5, 2, 3, 4, 7], outcome: "o-wins", opponent: "computer-4", x: "Bob", o: nil, finished: "2026-11-02T09:00:00Z"),
            finishedGame(opponent: "learner", x: "Grandma", o: nil, finished: "2026-11-03T09:00:00Z"),
        ]
        try memory.commit(nil, games: games)
        #expect(try memory.games(.all) == games)
        #expect(try memory.games(HistoryQuery(player: "Alice")) == [games[0], games[1]])
        #expect(try memory.games(HistoryQuery(opponent: "learner")) == [games[0], games[3]])
        #expect(try memory.games(HistoryQuery(outcome: "o-wins")) == [games[2]])
        #expect(try memory.games(HistoryQuery(since: "2026-11-01")) == Array(games[1...]))
        #expect(try memory.games(HistoryQuery(since: "2026-11-02T09:00:01Z")) == [games[3]])
        #expect(try memory.games(HistoryQuery(limit: 2)) == [games[2], games[3]])
        #expect(try memory.games(HistoryQuery(player: "Grandma", opponent: "learner")) == [games[3]])
        // A filter is data: quotes and SQL in it match nothing, and change nothing.
        #expect(try memory.games(HistoryQuery(player: "x' OR '1'='1")) == [])
        #expect(try memory.games(HistoryQuery(player: "Alice'; DROP TABLE games; --")) == [])
        #expect(try memory.gameCount() == 4)
    }

    @Test("past the games kept one by one, the oldest are folded into a monthly summary in the same commit")
    func summaries() throws {
        let memory = try BoardMemory.inMemory()
        let kept = BoardMemory.keptGames
        var games = Array(repeating: finishedGame(finished: "2026-10-31T23:00:00Z"), count: 3)
        games += Array(repeating: finishedGame(finished: "2026-11-01T00:00:00Z"), count: kept)
        try memory.commit(nil, games: games)
        #expect(try memory.gameCount() == kept)
        let summary = try memory.withDatabase { database throws(DatabaseError) in
            try database.value("SELECT month || ' ' || opponent || ' ' || x_wins || ' ' || o_wins || ' ' || draws FROM summaries")?.text
        }
        #expect(summary == "2026-10 two-players 3 0 0")
        try memory.commit(nil, games: [finishedGame(cells: [1, 2, 3, 4, 5, 7, 6, 9, 8], outcome: "draw")])
        #expect(try memory.gameCount() == kept)
        let months = try memory.withDatabase { database throws(DatabaseError) in try database.value("SELECT group_concat(month || ':' || x_wins) FROM summaries")?.text }
        #expect(months == "2026-10:3,2026-11:1")
    }
}

extension BoardMemory {
    /// Rows changed by every statement since the connection opened (`sqlite3_total_changes`).
    func changes() throws -> Int {
        try withDatabase { database in database.totalChanges }
    }
}
