import Basics
import BoardProtocol
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The web view's one connection to the board's socket (docs/API.md), on a thread of its own:
/// every line the board sends goes to the ``PageHub``; the lines the hub queues go to the board.
/// When the board cannot be reached, or goes away, the hub is told why and the link tries again
/// every ``retry``, for as long as it runs: the web view outlives restarts of the board.
final class BoardLink: Sendable {
    private struct Outbox {
        var lines: [String] = []
        var stopping = false
    }

    let path: String
    let retry: Duration
    private let outbox = Mutex(Outbox())
    private let loop = PollLoop(named: "web-board-link")

    init(path: String, retry: Duration = .seconds(1)) {
        self.path = path
        self.retry = retry
    }

    func start(reporting hub: PageHub) {
        loop.start { [self] loop in run(hub, on: loop) }
    }

    /// Queues `line` for the board; dropped once the link is stopping.
    func send(_ line: String) {
        let queued = outbox.withLock { outbox in
            guard !outbox.stopping else { return false }
            outbox.lines.append(line)
            return true
        }
        if queued { loop.wake() }
    }

    /// At most once.
    func stop() {
        outbox.withLock { $0.stopping = true }
        loop.stop()
    }

    private func run(_ hub: PageHub, on loop: PollLoop) {
        while !loop.isStopping {
            let fd: Int32
            do {
                fd = try UnixSocket.connect(to: path)
            } catch {
                if error.isNotListening {
                    hub.boardLost(.boardNotListening, "no board listening at \(path) (is it running? systemctl status tictactoe.socket tictactoe.service)")
                } else if error.isPermissionDenied {
                    hub.boardLost(.boardNotAllowed, "not allowed to connect to \(path): the web view must be in the tictactoe group")
                } else {
                    hub.boardLost(.boardLinkFailed, error.description)
                }
                _ = loop.pause(retry)
                continue
            }
            // Lines queued while the board was away were answered with errors already.
            outbox.withLock { $0.lines.removeAll() }
            hub.boardConnected()
            let reason = converse(over: fd, with: hub, on: loop)
            close(fd)
            hub.boardLost(.boardClosed, reason)
        }
    }

    /// Carries lines both ways until the board closes the connection or the link stops; why
    /// the conversation ended.
    private func converse(over fd: Int32, with hub: PageHub, on loop: PollLoop) -> String {
        var lines = LineBuffer(limit: APIMessage.maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while let polled = loop.wait(for: [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)], timeout: -1) {
            let queued = outbox.withLock { outbox in
                defer { outbox.lines.removeAll() }
                return outbox.lines
            }
            for line in queued where !Self.send(line, over: fd) { return "the board closed the connection" }
            if polled[0].revents != 0 {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return "the board closed the connection (is it restarting?)" }
                for case .complete(let line) in lines.append(buffer[..<count]) {
                    hub.boardSent(String(decoding: line, as: UTF8.self))
                }
            }
        }
        return "the web view is stopping"
    }

    private static func send(_ line: String, over fd: Int32) -> Bool {
        TextFile.sendAll(fd, Array(line.utf8) + [UInt8(ascii: "\n")])
    }
}
