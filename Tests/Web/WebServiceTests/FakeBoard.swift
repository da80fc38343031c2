import Basics
import BoardProtocol
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A board's socket in the test: it greets each connection with a `hello` and a `state`, and
/// answers each line with `ok` after `delay`; or, `closing`, it accepts and closes at once (a
/// full board). Counts the connections it accepted.
final class FakeBoard: Sendable {
    let path: String
    private let listener: Int32
    private let accepted = Locked(0)
    private let closing: Bool
    private let delay: Duration
    private let stopping = Locked(false)
    private let acceptorEnded = DispatchSemaphore(value: 0)

    init(closing: Bool = false, delay: Duration = .milliseconds(200)) throws {
        let folder = try TextFile.makeTemporaryDirectory(prefix: "fake-board")
        path = folder + "/board.sock"
        listener = try UnixSocket.listen(at: path)
        self.closing = closing
        self.delay = delay
        let listener = listener, closing = closing
        Thread.detachNewThread { [self] in
            // The listening socket is closed only once this has ended (stop()): its number is
            // never polled after another test's socket may have taken it.
            defer { acceptorEnded.signal() }
            while true {
                // The listening socket is non-blocking (the board's server polls it).
                var polled = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&polled, 1, 50) >= 0, !stopping.withLock({ $0 }) else { return }
                guard polled.revents & Int16(POLLIN) != 0 else { continue }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                self.accepted.withLock { $0 += 1 }
                if closing {
                    close(fd)
                } else {
                    Thread.detachNewThread { self.converse(fd) }
                }
            }
        }
    }

    var connections: Int { accepted.withLock { $0 } }

    private func converse(_ fd: Int32) {
        defer { close(fd) }
        let hello = #"{"type":"hello","program":"fake"}"# + "\n" + #"{"type":"state","state":{}}"# + "\n"
        guard Socket.sendAll(fd, Array(hello.utf8)) else { return }
        var lines = LineBuffer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return }
            for case .complete(_) in lines.append(buffer[..<count]) {
                Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
                guard Socket.sendAll(fd, Array((#"{"type":"ok","command":"status","text":"fine"}"# + "\n").utf8)) else { return }
            }
        }
    }

    func stop() {
        stopping.withLock { $0 = true }
        acceptorEnded.wait()
        close(listener)
        unlink(path)
    }
}
