import Basics
import BoardAPI
import BoardProtocol
import CSQLite
import ViewModel
#if canImport(Glibc)
import Glibc
#endif

extension BoardMemory {
    /// What a state directory holds, read by ``inspect(directory:migrating:)``.
    public struct Finding: Sendable {
        public enum Source: String, Sendable {
            case database
            /// Release 0.4's `state.json` and `history.jsonl`, to import.
            case files = "release 0.4's files"
            case nothing
        }

        public var source: Source
        /// The game to restore; `nil` starts a fresh one.
        public var snapshot: GameSnapshot?
        /// The finished games kept one by one.
        public var games = 0
        /// Why the database (or a file to import) cannot be used, naming it: set aside by
        /// ``open(directory:after:)``, never half-read.
        public var problems: [String] = []
        /// What the log should say besides.
        public var notes: [String] = []
        fileprivate var databaseIsUnusable = false
        fileprivate var legacy: LegacyFiles?
        /// Release 0.4's files beside the database: those it imported (a crash came before they
        /// were renamed), and those it did not (written since: a release before this one ran here).
        fileprivate var imported: [String] = []
        fileprivate var strays: [String] = []
    }

    /// Reads the state directory without changing anything, but an earlier layout of the
    /// database migrated in place when `migrating` (one transaction: the layout is then today's).
    /// Throws only what leaves the board nothing safe to do: a database of a newer version, or
    /// one it cannot read for a reason other than its contents (permissions, locks).
    public static func inspect(directory: String, migrating: Bool = true) throws(MemoryError) -> Finding {
        let path = path(in: directory)
        var status = stat()
        guard lstat(path, &status) != 0 else { return try inspectDatabase(path, in: directory, migrating: migrating) }
        guard errno == ENOENT else { throw .unreadable(path: path, reason: TextFile.describeErrno(errno)) }
        // A log or index without its database (the database moved away by hand after a crash):
        // replayed into the next file of that name, it would bring the old game back into it.
        let parts: [String] = [path + "-wal", path + "-shm"]
        let orphans = parts.filter(Self.exists).map { part in "\(part.shownPath) is a log without its database; the board sets it aside" }
        let legacy = LegacyFiles.read(directory: directory)
        guard !legacy.isEmpty else { return Finding(source: .nothing, problems: orphans) }
        return Finding(
            source: .files, snapshot: legacy.snapshot, games: legacy.games.count,
            problems: orphans + legacy.unusable.map { "\($0.path.shownPath) \($0.problem)" }, notes: legacy.notes, legacy: legacy)
    }

    /// What the database at `path` holds, every row checked (``inspect(directory:migrating:)``).
    private static func inspectDatabase(_ path: String, in directory: String, migrating: Bool) throws(MemoryError) -> Finding {
        var finding = Finding(source: .database)
        // The log and its index: files, or the database is not one to open.
        let parts: [String] = [path, path + "-wal", path + "-shm"]
        if let part = parts.first(where: Self.isSomethingElse) {
            finding.problems = ["\(part.shownPath) is not a file"]
            finding.databaseIsUnusable = true
            return finding
        }
        do throws(ReadFailure) {
            let read = try read(path, migrating: migrating)
            (finding.snapshot, finding.games) = (read.snapshot, read.games)
            (finding.imported, finding.strays) = LegacyFiles.sorted(in: directory, against: read.imports)
            finding.notes = finding.strays.map { file in
                "\(file.shownPath) appeared after release 0.4's files were imported (did release 0.4 run here again?): what it holds is not in the database; the board sets it aside as not imported"
            }
        } catch {
            switch error {
            case .unusable(let reason):
                finding.problems = ["\(path.shownPath) \(reason)"]
                finding.databaseIsUnusable = true
            case .newer(let version): throw .newer(path: path, version: version)
            case .unreadable(let reason): throw .unreadable(path: path, reason: reason)
            }
        }
        return finding
    }

    /// Whether a note of ``open(directory:after:move:)`` tells of routine work (a file kept
    /// under another name, a leftover removed, an import), not of something the board could not
    /// use: the log's notice, not its error.
    public static func isRoutine(_ note: String) -> Bool {
        ["kept ", "removed ", "imported "].contains(where: note.hasPrefix)
    }

    /// Whether anything stands at `path` (a link is not followed).
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Whether something other than a regular file stands at `path`.
    private static func isSomethingElse(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
    }

    /// Makes the state directory and the database as `finding` says, once the board knows it can
    /// play: a database that cannot be used set aside, release 0.4's files imported, a fresh one
    /// made. Returns the memory and what the log should say. When an unusable database cannot be
    /// moved aside it is kept as it is and the memory is in memory only (the notes say so).
    /// - Parameter move: how a file is moved aside (``TextFile/setAside(_:suffix:move:)``; a test's seam).
    public static func open(
        directory: String, after finding: Finding, move: (String, String) -> Int32 = TextFile.renameWithoutReplacing
    ) throws(MemoryError) -> (memory: BoardMemory, notes: [String]) {
        let path = path(in: directory)
        var notes = try prepare(directory)
        do throws(TextFileError) {
            switch finding.source {
            case .database where finding.databaseIsUnusable:
                let (said, fresh) = try replaceUnusable(path, problems: finding.problems, move: move)
                notes += said
                if !fresh { return (try memoryOnly(path), notes) }
            case .files:
                notes += try setAsideOrphans(of: path, move: move)
                notes += try importFiles(finding.legacy ?? LegacyFiles(), into: path, move: move)
            case .nothing:
                notes += try setAsideOrphans(of: path, move: move)
                try create(path, snapshot: nil, games: [])
            case .database: break
            }
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
        notes += keepReleaseFiles(finding, move: move)
        // What the database holds is what was read (or imported): the first commit writes only what changed.
        let written = finding.problems.isEmpty || finding.source == .files ? finding.snapshot.map { SavedState($0) } : nil
        do {
            let database = try Database(path: path, mode: .readWrite)
            try configure(database)
            return (BoardMemory(database: database, path: path, written: written), notes)
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
    }

    /// A memory in memory only, for a board that must not write over the file at `path`.
    private static func memoryOnly(_ path: String) throws(TextFileError) -> BoardMemory {
        do {
            return try inMemory()
        } catch {
            throw TextFileError(reason: "cannot keep even a memory in memory: \(error)")
        }
    }

    /// Renames release 0.4's files once they are in the database (also after a crash between the
    /// import's rename and theirs); one written since is kept apart. Returns what the log should say.
    private static func keepReleaseFiles(_ finding: Finding, move: (String, String) -> Int32) -> [String] {
        var notes: [String] = []
        let imported = finding.source == .files ? (finding.legacy?.found ?? []) : finding.imported
        for file in imported where exists(file) {
            if let aside = try? TextFile.setAside(file, suffix: ".imported", move: move) { notes.append("kept \(file.shownPath) as \(aside.shownPath)") }
        }
        for file in finding.strays where exists(file) {
            if let aside = try? TextFile.setAside(file, suffix: ".not-imported-\(WallTime.now().seconds)", move: move) {
                notes.append("\(file.shownPath) appeared after release 0.4's files were imported; not imported, kept as \(aside.shownPath)")
            }
        }
        return notes
    }

    /// Makes the state directory and removes what release 0.4's saves cut short left.
    private static func prepare(_ directory: String) throws(MemoryError) -> [String] {
        do throws(TextFileError) {
            try TextFile.makeDirectory(directory)
            return try TextFile.removeLeftovers(of: LegacyFiles.names.map { directory + "/" + $0 }).map { leftover in
                "removed \(leftover.shownPath), left by a save of release 0.4 that a crash interrupted"
            }
        } catch {
            throw .unwritable(path: directory, reason: error.reason)
        }
    }

    /// Moves the unusable database at `path` aside and makes a fresh one; returns what the log
    /// should say, and whether there is a fresh database to save in (else the board saves nothing).
    private static func replaceUnusable(_ path: String, problems: [String], move: (String, String) -> Int32) throws(TextFileError) -> ([String], Bool) {
        let problem = problems.joined(separator: "; ")
        let aside: String
        do throws(TextFileError) {
            aside = try TextFile.setAside(path, suffix: ".corrupt-\(WallTime.now().seconds)", move: move)
        } catch {
            return (["""
                \(problem); it could not be moved aside (\(error.reason)), so the board keeps it as it is and plays a fresh \
                game WITHOUT SAVING: move it away (or remove it, once looked at) and restart the board
                """], false)
        }
        // Its log and index go with it: a log left behind would be replayed into the next file of
        // that name.
        for part in ["-wal", "-shm"] where exists(path + part) {
            do throws(TextFileError) {
                _ = try TextFile.setAside(path + part, suffix: ".corrupt-\(WallTime.now().seconds)", move: move)
            } catch {
                return (["""
                    \(problem); moved it to \(aside.shownPath), but not its \(part.dropFirst()) file (\(error.reason)), which a new \
                    database would read, so the board plays a fresh game WITHOUT SAVING: move \((path + part).shownPath) away and \
                    restart the board
                    """], false)
            }
        }
        do throws(TextFileError) {
            try create(path, snapshot: nil, games: [])
            return (["\(problem); moved it to \(aside.shownPath) and started afresh"], true)
        } catch {
            return (["""
                \(problem); moved it to \(aside.shownPath), but a new database cannot be made there (\(error.reason)), so the \
                board plays a fresh game WITHOUT SAVING: make the state directory writable and restart the board
                """], false)
        }
    }

    /// Moves aside a log or index found without its database; returns what the log should say.
    private static func setAsideOrphans(of path: String, move: (String, String) -> Int32) throws(TextFileError) -> [String] {
        var notes: [String] = []
        for part in ["-wal", "-shm"] where exists(path + part) {
            let aside = try TextFile.setAside(path + part, suffix: ".orphan-\(WallTime.now().seconds)", move: move)
            notes.append("\((path + part).shownPath) was a log without its database; moved it to \(aside.shownPath)")
        }
        return notes
    }

    /// Makes the database at `path` of release 0.4's files; those that cannot be used are set aside.
    private static func importFiles(_ legacy: LegacyFiles, into path: String, move: (String, String) -> Int32) throws(TextFileError) -> [String] {
        var notes = legacy.notes
        // Set aside first: once the database is in place, a file left at its name is taken for imported.
        for (file, problem) in legacy.unusable {
            let aside = try TextFile.setAside(file, suffix: ".corrupt-\(WallTime.now().seconds)", move: move)
            notes.append("\(file.shownPath) \(problem); moved it to \(aside.shownPath), not imported")
        }
        let usable = legacy.found.filter { file in !legacy.unusable.contains { $0.path == file } }
        try create(path, snapshot: legacy.snapshot, games: legacy.games, imported: usable.compactMap(LegacyFiles.fingerprint))
        let game = legacy.snapshot == nil ? "no saved game" : "the saved game"
        notes.append("imported \(game) and \(legacy.games.count) finished games from release 0.4's files into \(path.shownPath)")
        return notes
    }

    /// The pragmas every connection that writes sets: the log's durability, and its size.
    private static func configure(_ database: Database) throws(DatabaseError) {
        // WAL is kept in the file; FULL flushes the log at every commit, so that a commit that
        // returned survives a power cut (NORMAL would lose the commits since the last checkpoint).
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA journal_size_limit = 1048576")
    }

    /// Makes the database at `path` with `snapshot` and `games`, whole or not at all: made under a
    /// temporary name, then renamed into place and the directory flushed.
    private static func create(
        _ path: String, snapshot: GameSnapshot?, games: [PlayedGame], imported: [LegacyFiles.Fingerprint] = []
    ) throws(TextFileError) {
        let temporary = path + "-import"
        var status = stat()
        if lstat(temporary, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
            // Nothing this program makes: kept for a person to look at, out of the way.
            _ = try TextFile.setAside(temporary, suffix: ".corrupt-\(WallTime.now().seconds)")
        }
        for part in ["", "-journal", "-wal", "-shm"] { unlink(temporary + part) }
        do {
            let database = try Database(path: temporary, mode: .create)
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
            try migrate(database)
            let memory = BoardMemory(database: database, path: temporary, written: nil)
            try memory.commit(snapshot, games: games)
            for file in imported {
                try database.run("INSERT INTO imports (name, bytes, digest) VALUES (?, ?, ?)", [.text(file.name), .integer(file.bytes), .text(file.digest)])
            }
            // Everything into the file itself, checked (a checkpoint at close could fail unseen on
            // a card nearly full): the file renamed into place must hold it all.
            guard try database.value("PRAGMA journal_mode = DELETE")?.text == "delete" else {
                throw TextFileError(reason: "cannot make the database: its log could not be written into it")
            }
        } catch let error as TextFileError {
            for part in ["", "-journal", "-wal", "-shm"] { unlink(temporary + part) }
            throw error
        } catch {
            for part in ["", "-journal", "-wal", "-shm"] { unlink(temporary + part) }
            throw TextFileError(reason: "cannot make the database: \(error)")
        }
        guard !exists(temporary + "-wal"), rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw TextFileError(reason: "cannot make the database: \(TextFile.describeErrno(failure))", code: failure)
        }
        try TextFile.syncDirectory(of: path, after: "the database was made")
    }

    /// Brings `database` to today's layout, one step per version, in one transaction.
    static func migrate(_ database: Database) throws(DatabaseError) {
        let version = try database.value("PRAGMA user_version")?.integer ?? 0
        // Only from a layout a board wrote (the reader refuses any other before it migrates).
        guard (0..<Schema.version).contains(version) else { return }
        try database.transaction { () throws(DatabaseError) in
            for step in Schema.migrations[version...] { try database.execute(step) }
            try database.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(Schema.version)")
        }
    }

    private enum ReadFailure: Error {
        /// Its contents: a phrase after its path.
        case unusable(String)
        case newer(Int)
        /// Not its contents: permissions, a lock held.
        case unreadable(String)
    }

    /// The game and the count of finished games in the database at `path`, every row checked.
    private static func read(_ path: String, migrating: Bool) throws(ReadFailure) -> (snapshot: GameSnapshot?, games: Int, imports: [LegacyFiles.Fingerprint]) {
        do {
            // A reader that must change nothing takes a file no board has open (no log beside it) as
            // it is, without making a log beside it; one a board may have open, read-only.
            let mode: Database.Mode = migrating ? .readWrite : access(path + "-wal", F_OK) == 0 ? .readOnly : .closedFile
            let database = try Database(path: path, mode: mode)
            // An empty file (layout 0) holds nothing yet.
            let layout = try checkedLayout(database, migrating: migrating)
            guard layout > 0 else { return (nil, 0, []) }
            try checkNumbering(database)
            let snapshot = try savedGame(database, layout: layout)
            var count = 0
            try database.rows("SELECT number, opponent, x_name, o_name, starter, started, finished, outcome, carried_over, moves FROM games") {
                row throws(DatabaseError) in
                _ = try game(row, in: database)
                count += 1
            }
            var imports: [LegacyFiles.Fingerprint] = []
            try database.rows("SELECT name, bytes, digest FROM imports") { row throws(DatabaseError) in
                guard let name = row[0].text, let bytes = row[1].integer, let digest = row[2].text else { throw database.damaged("an imports row has a column no board writes") }
                imports.append(LegacyFiles.Fingerprint(name: name, bytes: bytes, digest: digest))
            }
            // Migrated only once every row has been read and checked at its own layout: a file
            // that cannot be used is set aside as it was found, not half brought up to date.
            if migrating && layout < Schema.version { try migrate(database) }
            return (snapshot, count, imports)
        } catch let error as ReadFailure {
            throw error
        } catch let error as DatabaseError {
            // Refused for who is asking or while another holds it: nothing wrong with the file.
            if [SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM, SQLITE_CANTOPEN].contains(error.code & 0xff) && error.systemCode != 0 || [SQLITE_BUSY, SQLITE_LOCKED].contains(error.code & 0xff) {
                throw .unreadable(error.message + (error.systemCode == 0 ? "" : " (\(TextFile.describeErrno(error.systemCode)))"))
            }
            throw .unusable("cannot be used: \(error.message.shown(limit: 200))")
        } catch let error as StateFileProblem {
            throw .unusable("holds no game a board saves: \(error)")
        } catch {
            throw .unusable("cannot be used: \(error)")
        }
    }

    /// The layout `database` is read at, once it is known to be the board's, whole, and laid out
    /// as that version of the board made it: its own, read as it stands (`check-state` on a board
    /// not yet started by this version must say what that start will find; the start migrates it
    /// once it has read it whole), or today's for an empty file when `migrating`.
    private static func checkedLayout(_ database: Database, migrating: Bool) throws -> Int {
        let check = try database.value("PRAGMA integrity_check")?.text ?? ""
        guard check == "ok" else { throw ReadFailure.unusable("fails SQLite's integrity check: \(check.shown(limit: 200))") }
        let application = try database.value("PRAGMA application_id")?.integer ?? 0
        let version = try database.value("PRAGMA user_version")?.integer ?? 0
        guard application == Schema.applicationID else {
            throw ReadFailure.unusable(application == 0 && version == 0 ? "holds no board's data" : "is not the board's database (application id \(application))")
        }
        guard version <= Schema.version else { throw ReadFailure.newer(version) }
        // A signed 32-bit number in the file: one below 0 is no layout, not an earlier one.
        guard version >= 0 else { throw ReadFailure.unusable("is laid out as no board lays a database out (layout \(version))") }
        var layout = version
        // An empty file (a board that stopped while making it) is made today's at once; any
        // other earlier layout is read as it stands, and migrated by the reader once it is known
        // to be usable.
        if version == 0 && migrating {
            try migrate(database)
            layout = Schema.version
        }
        guard layout > 0 else { return 0 }
        var tables: [String] = []
        try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { row throws(DatabaseError) in
            tables.append(row[0].text ?? "")
        }
        guard tables == Schema.tables else { throw ReadFailure.unusable("holds the tables \(tables.joined(separator: ", ")), not the board's") }
        guard let reference = Schema.reference(layout: layout), try Schema.entries(of: database) == reference else {
            throw ReadFailure.unusable("is not laid out as the board's: its tables, indexes or triggers differ from what the board makes")
        }
        return layout
    }

    /// Refuses more finished games than the board keeps, or games not numbered one after another
    /// (what the summaries fold and a start reads is bounded by both).
    private static func checkNumbering(_ database: Database) throws {
        var span: (count: Int, first: Int, last: Int) = (0, 0, 0)
        try database.rows("SELECT count(*), ifnull(min(number), 0), ifnull(max(number), 0) FROM games") { row throws(DatabaseError) in
            span = (row[0].integer ?? 0, row[1].integer ?? 0, row[2].integer ?? 0)
        }
        guard span.count <= keptGames else { throw ReadFailure.unusable("holds \(span.count) finished games, more than the \(keptGames) a board keeps") }
        guard span.count == 0 || span.last - span.first + 1 == span.count else {
            throw ReadFailure.unusable("numbers its finished games with gaps (\(span.count) games from \(span.first) to \(span.last)); a board numbers them one after another")
        }
    }

    /// The game the rows hold, checked whole; `nil` for a database with no game yet.
    private static func savedGame(_ database: Database, layout: Int) throws -> GameSnapshot? {
        var game: (starter: String, next: String, opponent: String, cells: String, moves: String?, remoteGame: Int)?
        // Layouts before 3 knew no other board.
        let columns = "starter, next_starter, opponent, cells, moves, \(layout >= 3 ? "remote_game" : "0")"
        try database.rows("SELECT \(columns) FROM game") { row throws(DatabaseError) in
            guard let starter = row[0].text, let next = row[1].text, let opponent = row[2].text, let cells = row[3].text,
                  let remoteGame = row[5].integer else {
                throw database.damaged("the game row has a column no board writes")
            }
            game = (starter, next, opponent, cells, row[4].text, remoteGame)
        }
        var scores: [String: SavedState.SavedScore] = [:]
        try database.rows("SELECT opponent, x_wins, o_wins, draws FROM scores") { row throws(DatabaseError) in
            guard let opponent = row[0].text, let x = row[1].integer, let o = row[2].integer, let draws = row[3].integer else {
                throw database.damaged("a score row has a column no board writes")
            }
            scores[opponent] = SavedState.SavedScore(xWins: x, oWins: o, draws: draws)
        }
        let (learner, learnerRows) = try savedLearner(database, layout: layout)
        guard let game else {
            guard scores.isEmpty && learnerRows == 0 && learner.boxes.isEmpty else {
                throw database.damaged("it holds scores or a learner without a game")
            }
            return nil
        }
        guard let cells = RowText.cells(game.cells) else { throw database.damaged("the game's cells are \(game.cells.quoted())") }
        var moves: [Int]?
        if let text = game.moves {
            let digits = text.compactMap(\.wholeNumberValue)
            guard digits.count == text.count else { throw database.damaged("the game's moves are \(text.quoted())") }
            moves = digits
        }
        let saved = SavedState(
            cells: cells, starter: game.starter, nextStarter: game.next, opponent: game.opponent, scores: scores, moves: moves, learner: learner,
            remoteGame: game.remoteGame)
        return try saved.snapshot()
    }

    /// The learner's row and boxes, and how many learner rows there were (0 or 1). Layout 1 kept
    /// no resets: its learner was the board's first, as its migration says.
    private static func savedLearner(_ database: Database, layout: Int) throws(DatabaseError) -> (SavedLearner, Int) {
        var learner = SavedLearner(boxes: [:], refills: 0, games: 0, tens: [])
        var rows = 0
        try database.rows("SELECT refills, games, tens, \(layout >= 2 ? "resets" : "0") FROM learner") { row throws(DatabaseError) in
            guard let refills = row[0].integer, let games = row[1].integer, let text = row[2].text, let tens = RowText.tens(text),
                  let resets = row[3].integer else {
                throw database.damaged("the learner row has a column no board writes")
            }
            (learner.refills, learner.games, learner.tens, learner.resets, rows) = (refills, games, tens, resets, 1)
        }
        try database.rows("SELECT position, beads FROM boxes") { row throws(DatabaseError) in
            guard let position = row[0].text, let text = row[1].text, let beads = RowText.numbers(text) else {
                throw database.damaged("a box row has a column no board writes")
            }
            learner.boxes[position] = beads
        }
        return (learner, rows)
    }
}

/// Why the board's memory cannot be had at all (the start stops, with an exit status of its own).
public enum MemoryError: Error, Sendable, CustomStringConvertible {
    /// A database of a later version: set aside, it would lose everything a downgrade should keep.
    case newer(path: String, version: Int)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .newer(let path, let version):
            "\(path.shownPath) was written by a newer version of the board (its layout is \(version), this version knows up to \(Schema.version)); install that version again, or move the file away to start afresh"
        case .unreadable(let path, let reason): "\(path.shownPath) cannot be read: \(reason)"
        case .unwritable(let path, let reason): "\(path.shownPath): \(reason)"
        }
    }
}
