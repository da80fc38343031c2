import Basics
import BoardAPI
import Dispatch
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
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, retry: Duration = .seconds(1)) {
        self.path = path
        self.retry = retry
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 {
            fatalError("BoardLink: no pipe for waking the link: \(TextFile.describeErrno(errno))")
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    func start(reporting hub: PageHub) {
        LoopThread.start(named: "web-board-link") { [self] in
            run(hub)
            finished.signal()
        }
    }

    /// Queues `line` for the board; dropped once the link is stopping.
    func send(_ line: String) {
        outbox.withLock { outbox in
            guard !outbox.stopping else { return }
            outbox.lines.append(line)
            wake()
        }
    }

    /// At most once.
    func stop() {
        // Wake-ups are written under the outbox's lock, so none is written after the pipe closes
        // below, where it could land in whatever the process opens next under its number.
        let first = outbox.withLock { outbox in
            defer { outbox.stopping = true }
            if !outbox.stopping { wake() }
            return !outbox.stopping
        }
        guard first else { return }
        finished.wait()
        close(wakeRead)
        close(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private var stopping: Bool { outbox.withLock { $0.stopping } }

    private func run(_ hub: PageHub) {
        while !stopping {
            let fd: Int32
            do {
                fd = try UnixSocket.connect(to: path)
            } catch {
                hub.boardLost(error.isNotListening
                    ? "no board listening at \(path) (is it running? systemctl status tictactoe.socket tictactoe.service)"
                    : error.isPermissionDenied ? "not allowed to connect to \(path): the web view must be in the tictactoe group" : error.description)
                pause(retry)
                continue
            }
            // Lines queued while the board was away were answered with errors already.
            outbox.withLock { $0.lines.removeAll() }
            hub.boardConnected()
            let reason = converse(over: fd, with: hub)
            close(fd)
            hub.boardLost(reason)
        }
    }

    /// Carries lines both ways until the board closes the connection or the link stops; why
    /// the conversation ended.
    private func converse(over fd: Int32, with hub: PageHub) -> String {
        var lines = LineBuffer(limit: 1 << 22)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopping {
            var polled = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if poll(&polled, 2, -1) < 0 && errno != EINTR { return "polling the board's socket failed: \(TextFile.describeErrno(errno))" }
            if polled[0].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &sink, sink.count) > 0 {}
                let queued = outbox.withLock { outbox in
                    defer { outbox.lines.removeAll() }
                    return outbox.lines
                }
                for line in queued where !Self.send(line, over: fd) { return "the board closed the connection" }
            }
            if polled[1].revents != 0 {
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

    /// Waits `duration`, or until the link is stopped.
    private func pause(_ duration: Duration) {
        var polled = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        _ = poll(&polled, 1, Int32(duration.nanoseconds / 1_000_000))
        var sink = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &sink, sink.count) > 0 {}
    }
}
