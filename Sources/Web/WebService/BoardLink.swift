import Basics
import BoardProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The web view's one connection to the board's socket (docs/API.md), on the web server's loop:
/// every line the board sends goes to the ``PageHub``; the lines the hub queues go to the board.
/// When the board cannot be reached, or goes away, the hub is told why and the link tries again
/// ``retry`` later, for as long as the web view runs: it outlives restarts of the board.
///
/// Confined to the loop. What waits to be sent is bounded by the ``BoardRelay``'s own bound on
/// the commands waiting for the board's answers; lines queued while the board is away are not
/// kept (the relay has answered them with errors already).
final class BoardLink {
    let path: String
    let retry: Duration
    private var fd: Int32 = -1
    private var lines = LineBuffer(limit: APIMessage.maximumLineLength)
    private var outgoing: [UInt8] = []
    /// When to try to connect again; nil while connected, or when it should try at once.
    private var nextAttempt: MonotonicInstant?
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    init(path: String, retry: Duration) {
        self.path = path
        self.retry = retry
    }

    /// What the loop waits for on the board's socket (a negative descriptor while away).
    var pollRequest: pollfd {
        pollfd(fd: fd, events: Int16(POLLIN) | (outgoing.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)
    }

    /// When the link next needs the loop while the board is away.
    var deadline: MonotonicInstant? { fd < 0 ? nextAttempt : nil }

    /// Queues `line` for the board; dropped while it is away.
    func send(_ line: String) {
        guard fd >= 0 else { return }
        outgoing += Array(line.utf8)
        outgoing.append(UInt8(ascii: "\n"))
    }

    /// Connects when away and it is time to try.
    func connectIfDue(at now: MonotonicInstant, hub: PageHub) {
        guard fd < 0, nextAttempt.map({ now >= $0 }) ?? true else { return }
        do {
            fd = try UnixSocket.connect(to: path)
        } catch {
            nextAttempt = now + retry
            if error.isNotListening {
                hub.boardLost(.boardNotListening, "no board listening at \(path) (is it running? systemctl status tictactoe.socket tictactoe.service)")
            } else if error.isPermissionDenied {
                hub.boardLost(.boardNotAllowed, "not allowed to connect to \(path): the web view must be in the tictactoe group")
            } else {
                hub.boardLost(.boardLinkFailed, error.description)
            }
            return
        }
        Socket.makeNonBlocking(fd)
        nextAttempt = nil
        hub.boardConnected()
    }

    /// Moves what the board's socket is ready for.
    func serve(_ revents: Int16, hub: PageHub) {
        guard fd >= 0 else { return }
        if revents & Int16(POLLOUT) != 0 && !outgoing.isEmpty {
            guard let sent = Socket.sendSome(fd, outgoing[...]) else { return lose("the board closed the connection", hub: hub) }
            outgoing.removeFirst(sent)
        }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else { return lose("the board closed the connection (is it restarting?)", hub: hub) }
        for case .complete(let line) in lines.append(buffer[..<count]) {
            hub.boardSent(String(decoding: line, as: UTF8.self))
        }
    }

    /// Lets the board go (the web view is stopping).
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    private func lose(_ reason: String, hub: PageHub) {
        close()
        outgoing = []
        lines = LineBuffer(limit: APIMessage.maximumLineLength)
        // Tried again at once: a board that restarts is usually back (its socket is systemd's).
        nextAttempt = nil
        hub.boardLost(.boardClosed, reason)
    }
}
