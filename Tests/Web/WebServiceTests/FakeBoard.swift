import Basics
import BoardProtocol
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A board's socket in the test: it greets each connection with a `hello` and a `state`, and
/// answers each line with `ok`, each answer held until the test calls ``answer()``; or,
/// `closing`, it accepts and closes at once (a full board). Counts the connections it accepted
/// (``acceptedSoFar()``), without the test ever waiting on the clock.
final class FakeBoard: Sendable {
    let path: String
    private let listener: Int32
    private let accepted = Locked(0)
    private let probes = Locked(0)
    private let closing: Bool
    private let answers = DispatchSemaphore(value: 0)
    private let stopping = Locked(false)
    private let acceptorEnded = DispatchSemaphore(value: 0)

    init(closing: Bool = false) throws {
        let folder = try TextFile.makeTemporaryDirectory(prefix: "fake-board")
        path = folder + "/board.sock"
        listener = try UnixSocket.listen(at: path)
        self.closing = closing
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

    /// The connections clients made before this call, every one accepted: it connects a probe
    /// of its own and waits until the board has accepted it (the probe reads the greeting, or
    /// the close), and the board accepts in the order clients connected.
    func acceptedSoFar() throws -> Int {
        let probe = try UnixSocket.connect(to: path)
        defer { close(probe) }
        // Bounded, so that a board that stopped accepting fails the test rather than hangs it.
        var limit = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(probe, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        guard read(probe, &byte, 1) >= 0 else { throw ProbeNotAccepted() }
        let made = probes.withLock { $0 += 1; return $0 }
        return accepted.withLock { $0 } - made
    }

    struct ProbeNotAccepted: Error {}

    /// Lets the board send one answer it holds (or the next one, when it holds none yet).
    func answer() { answers.signal() }

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
                answers.wait()
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
