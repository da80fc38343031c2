import Basics
import BoardProtocol
import ViewModel
#if canImport(Glibc)
import Glibc
#endif

/// Everything the board keeps: the game in progress, every pairing's score, the learner and
/// every finished game, in one SQLite database, `board.sqlite3` in the state directory.
///
/// ## Contract
/// - **One commit per change.** ``commit(_:games:)`` writes a snapshot, and the games that
///   ended before it, in one transaction: after a crash or a power cut the database holds the
///   state before that commit or after it, never a finished game without the score it counted
///   in, nor the reverse. Only what changed is written (a move rewrites one row).
/// - **Durable when it returns.** WAL, with `synchronous = FULL`: a commit is on the card once
///   ``commit(_:games:)`` returns, one `fsync` of the log per commit (what a power cut may take is
///   the commit in flight, as with the file the board kept before).
/// - **Untrusted on reading.** ``inspect(directory:migrating:)`` reads without changing anything
///   (but an earlier layout, migrated). A database that is damaged, not SQLite, not laid out as
///   the board's entry for entry, holds more games than it keeps, or a row no board writes
///   (``SavedState/snapshot()``, ``PlayedGame/problem()``) is one of ``Finding/problems``:
///   ``open(directory:after:move:)`` sets it aside whole (with its log) and starts afresh. One of
///   a newer version is refused (``MemoryError/newer``), never set aside: a downgrade loses nothing.
/// - **Release 0.4's files imported once**: `state.json` and `history.jsonl` (or `history.json`)
///   become the first database, made under a temporary name and renamed into place; the files
///   are then renamed `*.imported` and kept, each recorded by size and digest so that one written
///   later (0.4 run again) is told apart. A file that cannot be used is set aside, as 0.4 did.
/// - **Bounded.** At most ``keptGames`` games are kept one by one (about 400 bytes each); past it
///   the oldest are folded into a monthly summary per pairing, in the same commit.
/// - **Threads.** Every call may be made from any thread: one connection behind a lock. Commits
///   come from one writer (``Saver``); ``games(_:)`` waits at most for a commit under way.
///   ``close()`` ends it (the service's stop): the log is checkpointed and removed.
public final class BoardMemory: Sendable {
    /// The service's state directory: systemd's `StateDirectory=tictactoe` (systemd/tictactoe.service).
    public static let serviceDirectory = "/var/lib/tictactoe"
    public static let fileName = "board.sqlite3"
    /// Release 0.4's files in a state directory, imported once and then kept as `*.imported`.
    public static let releaseFileNames = LegacyFiles.names
    /// The files the database is while it is open: itself, its log and the log's index.
    public static let fileNames = [fileName, fileName + "-wal", fileName + "-shm"]
    /// The most finished games kept one by one: a year at 50 a day.
    public static let keptGames = 20_000

    /// The database's path; `nil` for a board that keeps its memory in memory only.
    public let path: String?
    private let connection: Protected<Connection>

    private struct Connection {
        /// `nil` once closed.
        var database: Database?
        /// What the last commit left in the database, so that the next writes only what
        /// changed; `nil` when unknown (at start, after a failure): then everything is written.
        var written: SavedState?
        /// How many commits have added finished games.
        var gamesCommitted = 0
    }

    /// - Parameter written: what the database holds now, if known (what it was read as).
    init(database: Database, path: String?, written: SavedState?) {
        self.path = path
        connection = Protected(Connection(database: database, written: written))
    }

    /// A memory that keeps nothing on disk: for a board that must not write over a file it
    /// could not set aside, and for tests.
    public static func inMemory() throws(DatabaseError) -> BoardMemory {
        let database = try Database(path: ":memory:", mode: .create)
        try migrate(database)
        return BoardMemory(database: database, path: nil, written: nil)
    }

    public static func path(in directory: String) -> String { directory + "/" + fileName }

    /// `body` with the database, under the lock: what the tests look at.
    func withDatabase<Value>(_ body: (Database) throws(DatabaseError) -> Value) throws(DatabaseError) -> Value {
        try withConnection { (connection: inout Connection, database: Database) throws(DatabaseError) in try body(database) }
    }

    /// `body` with the open connection, under the lock, its failure typed; throws once closed.
    private func withConnection<Value>(
        _ body: (inout Connection, Database) throws(DatabaseError) -> Value
    ) throws(DatabaseError) -> Value {
        try connection.withValue { connection in
            Result { () throws(DatabaseError) in
                guard let database = connection.database else {
                    throw DatabaseError(path: path ?? ":memory:", code: 21 /* SQLITE_MISUSE */, message: "the board's memory is closed", systemCode: 0)
                }
                return try body(&connection, database)
            }
        }.get()
    }

    /// Closes the database: the log is checkpointed into the file and removed, so a board
    /// stopped cleanly leaves the one file. Every later call throws.
    public func close() {
        connection.withValue { $0.database = nil }
    }

    // MARK: - Writing

    /// Writes `games` (finished, oldest first) and then `snapshot` in one transaction. Throws
    /// what SQLite refused, having changed nothing.
    public func commit(_ snapshot: GameSnapshot?, games: [PlayedGame] = []) throws(DatabaseError) {
        try withConnection { (connection: inout Connection, database: Database) throws(DatabaseError) in
            let saved = snapshot.map { SavedState($0) }
            let written = connection.written
            do throws(DatabaseError) {
                try database.transaction { () throws(DatabaseError) in
                    for game in games { try Self.insert(game, into: database) }
                    if !games.isEmpty { try Self.summariseOldGames(in: database) }
                    if let saved { try Self.write(saved, over: written, into: database) }
                }
                if let saved { connection.written = saved }
                if !games.isEmpty { connection.gamesCommitted += 1 }
            } catch {
                connection.written = nil
                throw error
            }
        }
    }

    private static func insert(_ game: PlayedGame, into database: Database) throws(DatabaseError) {
        try database.run("""
            INSERT INTO games (opponent, x_name, o_name, starter, started, finished, outcome, carried_over, moves)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .text(game.opponent), game.names.x.map(SQLValue.text) ?? .null, game.names.o.map(SQLValue.text) ?? .null,
                .text(game.starter), .text(game.started), .text(game.finished), .text(game.outcome),
                game.carriedOver.map { .text(RowText.cells($0)) } ?? .null, .text(RowText.moves(game.moves)),
            ])
    }

    /// Folds the games past ``keptGames`` into their month's summary. Numbers run without gaps
    /// from the oldest kept, so the count is the span (no scan of the table per game).
    private static func summariseOldGames(in database: Database) throws(DatabaseError) {
        var span: (first: Int, last: Int)?
        try database.rows("SELECT min(number), max(number) FROM games") { row throws(DatabaseError) in
            if let first = row[0].integer, let last = row[1].integer { span = (first, last) }
        }
        guard let span, span.last - span.first + 1 > keptGames else { return }
        let cut = span.last - keptGames
        try database.run("""
            INSERT INTO summaries (month, opponent, x_wins, o_wins, draws)
            SELECT substr(finished, 1, 7), opponent, sum(outcome = 'x-wins'), sum(outcome = 'o-wins'), sum(outcome = 'draw')
            FROM games WHERE number <= ? GROUP BY 1, 2
            ON CONFLICT (month, opponent) DO UPDATE SET
                x_wins = x_wins + excluded.x_wins, o_wins = o_wins + excluded.o_wins, draws = draws + excluded.draws
            """, [.integer(cut)])
        try database.run("DELETE FROM games WHERE number <= ?", [.integer(cut)])
    }

    /// Writes what differs between `saved` and `written` (everything when `written` is `nil`).
    private static func write(_ saved: SavedState, over written: SavedState?, into database: Database) throws(DatabaseError) {
        let moves = saved.moves.map { $0.map(String.init).joined() }
        if written?.cells != saved.cells || written?.starter != saved.starter || written?.nextStarter != saved.nextStarter
            || written?.opponent != saved.opponent || written?.moves != saved.moves || written?.remoteGame != saved.remoteGame {
            try database.run(
                "INSERT OR REPLACE INTO game (id, starter, next_starter, opponent, cells, moves, remote_game) VALUES (1, ?, ?, ?, ?, ?, ?)",
                [
                    .text(saved.starter), .text(saved.nextStarter), .text(saved.opponent ?? ""), .text(RowText.cells(saved.cells)),
                    moves.map(SQLValue.text) ?? .null, .integer(saved.remoteGame ?? 0),
                ])
        }
        if written?.scores != saved.scores {
            try database.run("DELETE FROM scores")
            for (opponent, score) in saved.scores ?? [:] {
                try database.run(
                    "INSERT INTO scores (opponent, x_wins, o_wins, draws) VALUES (?, ?, ?, ?)",
                    [.text(opponent), .integer(score.xWins), .integer(score.oWins), .integer(score.draws)])
            }
        }
        guard let learner = saved.learner else { return }
        let before = written?.learner
        if before?.refills != learner.refills || before?.games != learner.games || before?.tens != learner.tens || before?.resets != learner.resets {
            try database.run(
                "INSERT OR REPLACE INTO learner (id, refills, games, tens, resets) VALUES (1, ?, ?, ?, ?)",
                [.integer(learner.refills), .integer(learner.games), .text(RowText.tens(learner.tens)), .integer(learner.resets)])
        }
        guard before?.boxes != learner.boxes else { return }
        if before == nil { try database.run("DELETE FROM boxes") }
        for (position, _) in before?.boxes ?? [:] where learner.boxes[position] == nil {
            try database.run("DELETE FROM boxes WHERE position = ?", [.text(position)])
        }
        for (position, beads) in learner.boxes where before?.boxes[position] != beads {
            try database.run("INSERT OR REPLACE INTO boxes (position, beads) VALUES (?, ?)", [.text(position), .text(RowText.numbers(beads))])
        }
    }

    // MARK: - Reading

    /// The games `query` asks for: the latest ``HistoryQuery/limit`` that match, oldest first.
    public func games(_ query: HistoryQuery) throws(DatabaseError) -> [PlayedGame] {
        try withConnection { (_: inout Connection, database: Database) throws(DatabaseError) in
            var games: [PlayedGame] = []
            try database.rows("""
                SELECT number, opponent, x_name, o_name, starter, started, finished, outcome, carried_over, moves FROM games
                WHERE (?1 IS NULL OR x_name = ?1 OR o_name = ?1) AND (?2 IS NULL OR opponent = ?2)
                    AND (?3 IS NULL OR outcome = ?3) AND (?4 IS NULL OR finished >= ?4)
                ORDER BY number DESC LIMIT ?5
                """, [
                    query.player.map(SQLValue.text) ?? .null, query.opponent.map(SQLValue.text) ?? .null,
                    query.outcome.map(SQLValue.text) ?? .null, query.since.map(SQLValue.text) ?? .null, .integer(query.limit),
                ]) { row throws(DatabaseError) in
                games.append(try Self.game(row, in: database))
            }
            return games.reversed()
        }
    }

    /// A number that changes with every commit that adds finished games: two answers to the
    /// same query with the same revision between them are the same.
    public var revision: Int { connection.withValue { $0.gamesCommitted } }

    /// How many finished games are kept one by one.
    public func gameCount() throws(DatabaseError) -> Int {
        try withConnection { (_: inout Connection, database: Database) throws(DatabaseError) in
            try database.value("SELECT count(*) FROM games")?.integer ?? 0
        }
    }

    /// The game a row holds, checked as every game read is.
    static func game(_ row: Row, in database: Database) throws(DatabaseError) -> PlayedGame {
        let number = row[0].integer ?? 0
        guard let opponent = row[1].text, let starter = row[4].text, let started = row[5].text, let finished = row[6].text,
              let outcome = row[7].text, let movesText = row[9].text, let moves = RowText.moves(movesText) else {
            throw database.damaged("game \(number) has a column no board writes")
        }
        var carriedOver: [String]?
        if let text = row[8].text {
            guard let cells = RowText.cells(text) else { throw database.damaged("game \(number)'s carried_over is \(text.quoted())") }
            carriedOver = cells
        }
        let game = PlayedGame(
            opponent: opponent, names: ViewState.Names(x: row[2].text, o: row[3].text), starter: starter, started: started,
            finished: finished, outcome: outcome, carriedOver: carriedOver, moves: moves)
        if let problem = game.problem() { throw database.damaged("game \(number): \(problem)") }
        return game
    }
}

extension Database {
    /// A row no board writes, read after the start's checks (a file changed under the board).
    func damaged(_ what: String) -> DatabaseError {
        DatabaseError(path: path, code: 11 /* SQLITE_CORRUPT */, message: "damaged: \(what)", systemCode: 0)
    }
}
