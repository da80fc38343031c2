import Basics
import BoardProtocol
#if canImport(Glibc)
import Glibc
#endif
import NetworkRules

/// The file the web view's boards view reads (``BoardsList``): every board the link hears,
/// replaced whole (a reader never sees half of one) each time the list changes, at most every
/// ``BoardsList/interval``, and removed when the link stops, so that no page shows a list no one
/// keeps (one killed outright leaves it: systemd removes the service's runtime folder then). Readable by every user (the web view runs as its own): it holds nothing that every
/// board does not publish to every reader of the broker.
///
/// Confined to the link's loop.
struct BoardsListFile {
    let path: String
    let broker: String
    /// The list at that count of changes, with the broker connected or not, is in the file.
    private var written: (changes: Int, connected: Bool)?
    /// The last write tried: the next is not tried before the interval after it.
    private var writtenAt: MonotonicInstant?
    /// What the file holds, once written: a change the list does not show rewrites nothing.
    private var inFile: BoardsList?
    /// Why the last write failed: said once, until one succeeds.
    private var failure: String?

    init(path: String, broker: String) {
        self.path = path
        self.broker = broker
    }

    /// When the file is next to be written, `nil` while it is current.
    func due(_ inView: BoardsInView, connected: Bool) -> MonotonicInstant? {
        if let written, written == (inView.changes, connected) { return nil }
        return writtenAt.map { $0 + BoardsList.interval } ?? MonotonicInstant(nanoseconds: 0)
    }

    /// Writes the list when it is due; a line for the log when writing fails, or works again.
    mutating func update(_ inView: BoardsInView, connected: Bool, at now: MonotonicInstant) -> String? {
        guard let due = due(inView, connected: connected), now >= due else { return nil }
        // Tried again after the interval when it fails, not before: a full disk is not hammered.
        writtenAt = now
        let list = inView.directory.list(broker: broker, connected: connected)
        guard list != inFile else {
            written = (inView.changes, connected)
            return nil
        }
        do {
            try TextFile.write(bytes: Array((JSONLine.encode(list) ?? "{}").utf8), to: path, permissions: 0o644)
        } catch {
            defer { failure = error.reason }
            return error.reason == failure ? nil : "the boards list for the web view, \(path.quoted(limit: 120)): \(error.reason) (the link's --boards-file)"
        }
        (written, inFile) = ((inView.changes, connected), list)
        defer { failure = nil }
        return failure == nil ? nil : "the boards list for the web view is written again to \(path.quoted(limit: 120))"
    }

    /// The link stops: no list of its own is left behind (a file it never wrote is not its own).
    func remove() {
        if inFile != nil { unlink(path) }
    }
}
