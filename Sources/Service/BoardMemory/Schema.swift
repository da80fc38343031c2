/// The database's layout and how each earlier layout becomes it.
///
/// The version is `PRAGMA user_version`; `PRAGMA application_id` marks the file as the board's,
/// so that another program's SQLite file is never taken for one. Every table is `STRICT`, and
/// its checks hold what SQL can hold (a player is X or O, counts are not negative); the rest
/// (a board a game reaches, moves that replay) is checked by ``BoardMemory`` on reading.
enum Schema {
    /// "TtoG" in ASCII.
    static let applicationID = 0x5474_6F47
    static var version: Int { migrations.count }

    /// The steps from each version to the next: step N makes version N + 1 of version N (0 is an
    /// empty file). Append only: a board at any earlier version runs the steps after its own.
    static let migrations: [String] = [
        """
        CREATE TABLE game (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            starter TEXT NOT NULL CHECK (starter IN ('X', 'O')),
            next_starter TEXT NOT NULL CHECK (next_starter IN ('X', 'O')),
            opponent TEXT NOT NULL,
            cells TEXT NOT NULL CHECK (length(cells) = 9),
            moves TEXT
        ) STRICT;
        CREATE TABLE scores (
            opponent TEXT PRIMARY KEY,
            x_wins INTEGER NOT NULL CHECK (x_wins >= 0),
            o_wins INTEGER NOT NULL CHECK (o_wins >= 0),
            draws INTEGER NOT NULL CHECK (draws >= 0)
        ) STRICT;
        CREATE TABLE learner (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            refills INTEGER NOT NULL CHECK (refills >= 0),
            games INTEGER NOT NULL CHECK (games >= 0),
            tens TEXT NOT NULL
        ) STRICT;
        CREATE TABLE boxes (
            position TEXT PRIMARY KEY CHECK (length(position) = 9),
            beads TEXT NOT NULL
        ) STRICT;
        CREATE TABLE games (
            number INTEGER PRIMARY KEY CHECK (number > 0),
            opponent TEXT NOT NULL,
            x_name TEXT,
            o_name TEXT,
            starter TEXT NOT NULL CHECK (starter IN ('X', 'O')),
            started TEXT NOT NULL,
            finished TEXT NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('x-wins', 'o-wins', 'draw')),
            carried_over TEXT CHECK (carried_over IS NULL OR length(carried_over) = 9),
            moves TEXT NOT NULL
        ) STRICT;
        CREATE INDEX games_by_finish ON games (finished);
        CREATE TABLE summaries (
            month TEXT NOT NULL CHECK (length(month) = 7),
            opponent TEXT NOT NULL,
            x_wins INTEGER NOT NULL CHECK (x_wins >= 0),
            o_wins INTEGER NOT NULL CHECK (o_wins >= 0),
            draws INTEGER NOT NULL CHECK (draws >= 0),
            PRIMARY KEY (month, opponent)
        ) STRICT;
        CREATE TABLE imports (
            name TEXT PRIMARY KEY,
            bytes INTEGER NOT NULL CHECK (bytes >= 0),
            digest TEXT NOT NULL
        ) STRICT;
        """,
        // 2: the learner's resets (MatchboxLearner.resets), so that a reset asked about one
        // learner is told from the next at the same count of games; every learner before was
        // the board's first.
        """
        ALTER TABLE learner ADD COLUMN resets INTEGER NOT NULL DEFAULT 0 CHECK (resets >= 0);
        """,
        // 3: against another board, the pairing's game on the board (RemotePlay.game), so that
        // a board restarted mid-game follows the same game of the pairing; 0 for any other
        // opponent, as every game before was.
        """
        ALTER TABLE game ADD COLUMN remote_game INTEGER NOT NULL DEFAULT 0 CHECK (remote_game BETWEEN 0 AND 1000000000);
        """,
    ]

    /// The tables a database of this version holds. `imports`: release 0.4's files made into
    /// it, by size and digest, so that a file of that name found later is told from one a cut
    /// import left.
    static let tables = ["boxes", "game", "games", "imports", "learner", "scores", "summaries"]

    /// Everything `sqlite_schema` holds for a database of each layout (tables, indexes and their
    /// SQL), index 0 for layout 1, made once in memory: a file with anything else (a trigger, a
    /// view, a table without its checks) is not the board's.
    private static let references: [[String]?] = (1...version).map { layout in try? entries(ofLayout: layout) }

    /// ``references``' entry for `layout` (1 to ``version``).
    static func reference(layout: Int) -> [String]? {
        references.indices.contains(layout - 1) ? references[layout - 1] : nil
    }

    private static func entries(ofLayout layout: Int) throws(DatabaseError) -> [String] {
        let database = try Database(path: ":memory:", mode: .create)
        for step in migrations[..<layout] { try database.execute(step) }
        return try entries(of: database)
    }

    /// The entries of `database`'s `sqlite_schema`, sorted.
    static func entries(of database: Database) throws(DatabaseError) -> [String] {
        var entries: [String] = []
        try database.rows("SELECT type, name, tbl_name, ifnull(sql, '') FROM sqlite_schema ORDER BY type, name") { row throws(DatabaseError) in
            entries.append([row[0], row[1], row[2], row[3]].map { $0.text ?? "" }.joined(separator: " | "))
        }
        return entries
    }
}
