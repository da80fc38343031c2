import Basics
#if canImport(Glibc)
import Glibc
#endif

/// A client of the board's socket (docs/API.md) that stays with the board, on its caller's poll
/// loop: `tictactoe watch` and the web view. It connects, hands over every line the board sends,
/// sends the lines it is given, and when the board cannot be reached or goes away, says so and
/// tries again ``retry`` later (at once after a connection that had carried a line ends: a board
/// that restarts is usually back; one that closed before saying anything, a full board, is
/// given the pause), for as long as it is used. (A command that asks once and ends uses
/// ``BoardConnection``.)
///
/// Confined to the caller's thread; nothing blocks, connecting included. The caller waits on ``pollRequest`` beside
/// its own descriptors, no longer than until ``deadline``, and passes what it saw to
/// ``serve(_:)``; it calls ``connectIfDue(at:)`` on each turn. What waits to be sent is the
/// caller's to bound (the web view's relay bounds the commands waiting for answers); lines given
/// while the board is away are dropped.
public final class BoardLink {
    /// What happened on the link.
    public enum Event: Sendable, Equatable {
        case connected
        /// A line from the board, without its newline.
        case line([UInt8])
        /// No board could be reached: the link tries again after ``BoardLink/retry``.
        case unreachable(UnixSocket.Failure)
        /// The board closed the connection, or broke it.
        case closed
    }

    public let path: String
    public let retry: Duration
    private var fd: Int32 = -1
    private var lines = LineBuffer(limit: APIMessage.maximumLineLength)
    private var outgoing: [UInt8] = []
    /// When to try to connect again; nil: at the next turn.
    private var nextAttempt: MonotonicInstant?
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    /// The board has sent a line on this connection.
    private var heard = false

    public init(path: String, retry: Duration) {
        self.path = path
        self.retry = retry
    }

    deinit { close() }

    public var isConnected: Bool { fd >= 0 }

    /// What the caller waits for on the board's socket (a negative descriptor while away).
    public var pollRequest: pollfd {
        pollfd(fd: fd, events: Int16(POLLIN) | (outgoing.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)
    }

    /// When the link next needs its caller while the board is away.
    public var deadline: MonotonicInstant? { fd < 0 ? nextAttempt : nil }

    /// Queues `line` for the board; dropped while it is away.
    public func send(_ line: String) {
        guard fd >= 0 else { return }
        outgoing += Array(line.utf8)
        outgoing.append(UInt8(ascii: "\n"))
    }

    /// Connects when away and it is time to try: `.connected`, `.unreachable`, or nil (nothing
    /// tried).
    public func connectIfDue(at now: MonotonicInstant) -> Event? {
        guard fd < 0, nextAttempt.map({ now >= $0 }) ?? true else { return nil }
        do {
            fd = try UnixSocket.connect(to: path, blocking: false)
        } catch {
            nextAttempt = now + retry
            return .unreachable(error)
        }
        nextAttempt = nil
        heard = false
        return .connected
    }

    /// Moves what the board's socket is ready for (`revents` from the caller's poll, at `now`):
    /// the lines the board sent, in order, then `.closed` if it ended.
    public func serve(_ revents: Int16, at now: MonotonicInstant) -> [Event] {
        guard fd >= 0 else { return [] }
        if revents & Int16(POLLOUT) != 0 && !outgoing.isEmpty {
            guard let sent = Socket.sendSome(fd, outgoing[...]) else { return lose(at: now) }
            outgoing.removeFirst(sent)
        }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return [] }
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard count > 0 else { return lose(at: now) }
        let received: [Event] = lines.append(buffer[..<count]).compactMap { line in
            if case .complete(let bytes) = line { .line(bytes) } else { nil }
        }
        if !received.isEmpty { heard = true }
        return received
    }

    /// Lets the board go.
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    private func lose(at now: MonotonicInstant) -> [Event] {
        close()
        outgoing = []
        lines = LineBuffer(limit: APIMessage.maximumLineLength)
        nextAttempt = heard ? nil : now + retry
        return [.closed]
    }
}

extension BoardLink {
    /// Why the board is away after `event` (`.closed` or `.unreachable`; nil for the others): a
    /// reason for a program and a sentence for a person, the advice naming `client`, the program
    /// that must be in the board's group ("the web view", "the link").
    public func absence(after event: Event, client: String) -> (reason: ErrorReason, text: String)? {
        switch event {
        case .connected, .line: nil
        case .closed: (.boardClosed, "the board closed the connection (is it restarting?)")
        case .unreachable(let failure) where failure.isNotListening:
            (.boardNotListening, "no board listening at \(path) (is it running? systemctl status tictactoe.socket tictactoe.service)")
        case .unreachable(let failure) where failure.isPermissionDenied:
            (.boardNotAllowed, "not allowed to connect to \(path): \(client) must be in the tictactoe group")
        case .unreachable(let failure): (.boardLinkFailed, failure.description)
        }
    }
}
