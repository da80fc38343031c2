import Basics
import BoardProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The boards view's list (``BoardsList``), from the file the network link keeps: looked at
/// only while a page shows the view, every ``BoardsList/interval``, and read again only when it
/// was replaced; checked whole before any page is sent it. What a page is sent is the list as
/// the web view last read it, or why there is none.
///
/// Confined to the web server's loop.
final class BoardsFeed {
    /// `nil`: the web view was told to show no boards (`--boards-file ""`).
    let path: String?
    /// The page message for the list as it stands.
    private(set) var latest: String
    private var read: Signature?
    private var lookedAt: MonotonicInstant?

    /// What tells one file at the path from another: the link replaces it whole, so a new list
    /// is a new file (whose inode may be an old one's), and a file rewritten in place has a new
    /// change time, whatever its modification time was set to.
    private struct Signature: Equatable {
        var inode: UInt, size: Int, modified: timespec, changed: timespec

        static func == (a: Self, b: Self) -> Bool {
            a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    init(path: String?) {
        self.path = path
        latest = Self.unavailable(.none, "this web view shows no boards: it was started with --boards-file \"\"")
    }

    /// When the file is next to be looked at, while pages show the view.
    func deadline(watched: Bool) -> MonotonicInstant? {
        guard watched, path != nil else { return nil }
        return lookedAt.map { $0 + BoardsList.interval } ?? MonotonicInstant(nanoseconds: 0)
    }

    /// Looks at the file when it is due (`now`: whatever the last look); the new page message when
    /// the list changed.
    func look(at now: MonotonicInstant, now force: Bool = false) -> String? {
        guard let path, force || lookedAt.map({ now >= $0 + BoardsList.interval }) ?? true else { return nil }
        lookedAt = now
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else {
                return settle(Self.unavailable(.unreadable, "the list of boards at \(path.quoted(limit: 120)) cannot be looked at: \(TextFile.describeErrno(errno))"), read: nil)
            }
            let why = "no list of the boards at \(path.quoted(limit: 120)): the board's network link (tictactoe-network) is not running, or not on a broker (docs/NETWORK.md)"
            return settle(Self.unavailable(.noLink, why), read: nil)
        }
        let signature = Signature(inode: UInt(status.st_ino), size: Int(status.st_size), modified: status.st_mtim, changed: status.st_ctim)
        guard signature != read else { return nil }
        guard status.st_size <= BoardsList.largestFile else {
            return settle(Self.unavailable(.notAList, "the file at \(path.quoted(limit: 120)) is not the link's list of boards: it is larger than \(BoardsList.largestFile) bytes"), read: signature)
        }
        let bytes: [UInt8], list: BoardsList
        do { bytes = try TextFile.readBytes(path) } catch {
            return settle(Self.unavailable(.unreadable, "the list of boards at \(path.quoted(limit: 120)): \(error.reason)"), read: nil)
        }
        do { list = try BoardsList.read(bytes) } catch {
            return settle(Self.unavailable(.notAList, "the file at \(path.quoted(limit: 120)) is not the link's list of boards: \(error.reason)"), read: signature)
        }
        return settle(JSONLine.encode(list) ?? Self.unavailable(.notAList, "the list of boards could not be encoded"), read: signature)
    }

    private func settle(_ message: String, read signature: Signature?) -> String? {
        read = signature
        guard message != latest else { return nil }
        latest = message
        return message
    }

    /// Why there is no list, for the page to say in its own words (the `text` is for programs
    /// and people at a terminal: it names the file and the program).
    enum Reason: String, Encodable {
        /// The web view was told to show no boards.
        case none
        /// No file: no link runs, or it is not on a broker.
        case noLink = "no-link"
        case unreadable
        case notAList = "not-a-list"
    }

    /// The page message that says why there is no list.
    static func unavailable(_ reason: Reason, _ why: String) -> String {
        JSONLine.encode(Unavailable(reason: reason, text: why.prefix(1).uppercased() + why.dropFirst() + ".")) ?? "{}"
    }

    private struct Unavailable: Encodable {
        var type = "boards-unavailable"
        var reason: Reason
        var text: String
    }
}
