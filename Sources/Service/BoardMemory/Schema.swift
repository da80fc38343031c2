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
        """,
    ]

    /// The tables a database of this version holds, for telling a foreign file from the board's.
    static let tables = ["boxes", "game", "games", "learner", "scores", "summaries"]
}
