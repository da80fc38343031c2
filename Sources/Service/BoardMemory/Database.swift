import Basics
import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// One connection to an SQLite database file: statements prepared once and kept, values always
/// bound, never pasted into SQL.
///
/// ## Contract
/// - Not thread-safe on its own: its owner (``BoardMemory``) uses it under a lock.
/// - Every call either does what it says or throws a ``DatabaseError`` naming the file, what
///   failed and the system's error behind it; a failed ``transaction(_:)`` is rolled back whole.
/// - Closed when released.
final class Database {
    let path: String
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    enum Mode {
        /// Reads only; the file must exist.
        case readOnly
        /// Reads only a file no connection has open (no log beside it): without locks, and
        /// without making a log and its index beside it as a read-only connection otherwise does.
        case closedFile
        /// Reads and writes; the file must exist.
        case readWrite
        /// Reads and writes, making the file when there is none.
        case create
    }

    init(path: String, mode: Mode) throws(DatabaseError) {
        self.path = path
        let flags: Int32 = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY
        case .closedFile: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        case .readWrite: SQLITE_OPEN_READWRITE
        case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var opened: OpaquePointer?
        // No link followed at the file's name: SQLite refuses a link anywhere in the path with
        // that flag, so the folder is resolved first (the service's state directory is a link
        // to /var/lib/private under systemd's DynamicUser). A URI only where asked for.
        let file = Self.resolvingFolder(of: path)
        let name = mode == .closedFile ? "file:" + Self.escaped(file) + "?immutable=1" : file
        let status = sqlite3_open_v2(name, &opened, flags | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_EXRESCODE, nil)
        guard status == SQLITE_OK, let opened else {
            let error = DatabaseError(path: path, code: status, message: opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status)), systemCode: opened.map { sqlite3_system_errno($0) } ?? 0)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        // A writer that finds the file locked (check-state reading at that moment) waits a little.
        sqlite3_busy_timeout(handle, 2000)
    }

    /// `path` with its folder's links resolved (`realpath`), its last part as it is; `path` itself
    /// when the folder cannot be resolved (the open then says why).
    private static func resolvingFolder(of path: String) -> String {
        guard path != ":memory:", let slash = path.lastIndex(of: "/") else { return path }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return (real == "/" ? "" : real) + String(path[slash...])
    }

    /// `path` as a URI's path: the characters a URI gives a meaning escaped.
    private static func escaped(_ path: String) -> String {
        path.utf8.map { byte in
            byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte < 0x20 || byte >= 0x7F
                ? "%" + String(byte, radix: 16, uppercase: true).leftPadded : String(UnicodeScalar(byte))
        }.joined()
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Rows changed by every statement since the connection opened.
    var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// Runs `sql`, one or more statements without values.
    func execute(_ sql: String) throws(DatabaseError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Runs one statement with `values` bound to its `?` in order.
    func run(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) {
        try rows(sql, values) { _ throws(DatabaseError) in }
    }

    /// Runs one statement with `values` bound, handing each row it yields to `each`.
    func rows(_ sql: String, _ values: [SQLValue] = [], each: (Row) throws(DatabaseError) -> Void) throws(DatabaseError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, Int64(number))
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, csqlite_transient())
            case .null: sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw error(status) }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error(status) }
            try each(Row(statement: statement))
        }
    }

    /// The first column of the first row `sql` yields, if it yields one.
    func value(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> SQLValue? {
        var found: SQLValue?
        try rows(sql, values) { row throws(DatabaseError) in
            if found == nil { found = row[0] }
        }
        return found
    }

    /// Runs `body` in one transaction, taken for writing at once: committed when it returns,
    /// rolled back whole when it (or the commit) throws.
    func transaction(_ body: () throws(DatabaseError) -> Void) throws(DatabaseError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            // A commit that fails (a full card) can leave the transaction open: end it.
            if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    private func prepared(_ sql: String) throws(DatabaseError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        statements[sql] = statement
        return statement
    }

    private func error(_ status: Int32) -> DatabaseError {
        // SQLite keeps the system's error only for some results (not a full card's): the C
        // library's, read at once, when it is one a card gives.
        let failure = errno
        let system = sqlite3_system_errno(handle)
        let cardErrors = [ENOSPC, EROFS, EIO, EDQUOT, EACCES, EPERM]
        let code = system != 0 ? system : [SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN].contains(status & 0xff) && cardErrors.contains(failure) ? failure : 0
        return DatabaseError(path: path, code: status, message: String(cString: sqlite3_errmsg(handle)), systemCode: code)
    }
}

extension String {
    /// Two hex digits.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}

/// A value bound to a statement or read from a row.
enum SQLValue: Equatable {
    case integer(Int)
    case text(String)
    case null

    var integer: Int? { if case .integer(let number) = self { number } else { nil } }
    var text: String? { if case .text(let text) = self { text } else { nil } }
}

/// One row of a statement's results, valid only inside the call that hands it over.
struct Row {
    fileprivate let statement: OpaquePointer

    subscript(column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(Int(sqlite3_column_int64(statement, column)))
        case SQLITE_NULL: .null
        default: sqlite3_column_text(statement, column).map { .text(String(cString: $0)) } ?? .null
        }
    }
}

/// What SQLite refused, for which file.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    public var path: String
    /// SQLite's extended result code.
    public var code: Int32
    public var message: String
    /// The system's error number behind it (`ENOSPC`, `EIO`, …), 0 when none.
    public var systemCode: Int32

    /// The failure in a card's terms: full, read-only, failing, damaged.
    public var isDamage: Bool { [SQLITE_CORRUPT, SQLITE_NOTADB].contains(code & 0xff) }

    public init(path: String, code: Int32, message: String, systemCode: Int32) {
        self.path = path
        self.code = code
        self.message = message
        self.systemCode = systemCode
    }

    public var description: String {
        let system = systemCode == 0 ? "" : " (\(TextFile.describeErrno(systemCode)))"
        return "\(path.shownPath): \(message.shown(limit: 200))\(system)"
    }
}
