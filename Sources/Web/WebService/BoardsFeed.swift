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
    /// is a new inode, and a file rewritten in place a new time or size.
    private struct Signature: Equatable {
        var inode: UInt, size: Int, seconds: Int, nanoseconds: Int
    }

    init(path: String?) {
        self.path = path
        latest = Self.unavailable("this web view shows no boards: it was started with --boards-file \"\"")
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
            let why = errno == ENOENT
                ? "no list of the boards at \(path.quoted(limit: 120)): the board's network link (tictactoe-network) is not running, or not on a broker (docs/NETWORK.md)"
                : "the list of boards at \(path.quoted(limit: 120)) cannot be looked at: \(TextFile.describeErrno(errno))"
            return settle(Self.unavailable(why), read: nil)
        }
        let signature = Signature(
            inode: UInt(status.st_ino), size: Int(status.st_size), seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec))
        guard signature != read else { return nil }
        let bytes: [UInt8], list: BoardsList
        do { bytes = try TextFile.readBytes(path) } catch {
            return settle(Self.unavailable("the list of boards at \(path.quoted(limit: 120)): \(error.reason)"), read: nil)
        }
        do { list = try BoardsList.read(bytes) } catch {
            return settle(Self.unavailable("the file at \(path.quoted(limit: 120)) is not the link's list of boards: \(error.reason)"), read: signature)
        }
        return settle(JSONLine.encode(list) ?? Self.unavailable("the list of boards could not be encoded"), read: signature)
    }

    private func settle(_ message: String, read signature: Signature?) -> String? {
        read = signature
        guard message != latest else { return nil }
        latest = message
        return message
    }

    /// The page message that says why there is no list.
    static func unavailable(_ why: String) -> String {
        JSONLine.encode(Unavailable(text: why.prefix(1).uppercased() + why.dropFirst() + ".")) ?? "{}"
    }

    private struct Unavailable: Encodable {
        var type = "boards-unavailable"
        var text: String
    }
}
