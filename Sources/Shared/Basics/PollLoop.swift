import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread that waits on file descriptors with `poll(2)`, and a pipe that wakes it: what each
/// of the board's servers (the board's API server and the web view's server) runs
/// on, written once.
///
/// ## Contract
/// - ``start(_:)`` runs `body` on a thread of its own (``LoopThread``), at most once. `body`
///   waits with ``wait(for:timeout:)`` and returns when that returns `nil`: the loop is stopping.
/// - ``wake()`` may be called from any thread, as often as needed: the next or the current
///   ``wait(for:timeout:)`` returns (wake-ups are not counted; one wait answers many).
/// - ``stop()`` may be called from any thread but the loop's, at most once taking effect (later
///   calls return at once): it makes every later or current wait return `nil`, waits until `body`
///   has returned and been released (what it captured, the server it runs, is then the caller's
///   to release: its last reference never goes with the loop's thread, which may still be ending
///   when the process exits), and closes the pipe. No wake-up is written after that (they are written under
///   the same lock that closes it), so none can land in whatever the process opens next under
///   the pipe's number. Stopping a loop never started closes the pipe at once.
public final class PollLoop: Sendable {
    private enum Phase { case ready, running, stopping, stopped }

    private let name: String
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let phase = Locked(Phase.ready)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameter name: which loop, for the thread's failure messages.
    public init(named name: String) {
        self.name = name
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 {
            fatalError("\(name): no pipe for waking the loop: \(TextFile.describeErrno(errno))")
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        for fd in ends { Socket.makeNonBlocking(fd) }
    }

    /// Runs `body` on the loop's thread. Does nothing when started or stopped already.
    public func start(_ body: @escaping @Sendable (PollLoop) -> Void) {
        let starting = phase.withLock { phase in
            guard phase == .ready else { return false }
            phase = .running
            return true
        }
        guard starting else { return }
        let held = Locked<(@Sendable (PollLoop) -> Void)?>(body)
        LoopThread.start(named: name) { [self] in
            // Taken out and dropped before the stop is told: the thread keeps no reference to it.
            if let body = held.withLock({ held in defer { held = nil }; return held }) { body(self) }
            finished.signal()
        }
    }

    /// Whether ``stop()`` has been called.
    public var isStopping: Bool { phase.withLock { $0 == .stopping || $0 == .stopped } }

    /// Makes the loop's current or next wait return. Does nothing once the loop is stopping.
    public func wake() {
        phase.withLock { phase in
            if phase == .ready || phase == .running { signal() }
        }
    }

    /// Waits until one of `descriptors` has an event it asks for (or an error or hang-up), the
    /// loop is woken, or `timeout` milliseconds pass (-1: no limit); returns the descriptors with
    /// their `revents`, in the order given, or `nil` when the loop is stopping.
    public func wait(for descriptors: [pollfd], timeout: Int32) -> [pollfd]? {
        var polled = descriptors + [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            if isStopping { return nil }
            if poll(&polled, nfds_t(polled.count), timeout) >= 0 { break }
            if errno != EINTR { fatalError("\(name): poll failed: \(TextFile.describeErrno(errno))") }
        }
        if polled[polled.count - 1].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &sink, sink.count) > 0 {}
        }
        if isStopping { return nil }
        return Array(polled.dropLast())
    }

    /// Waits `duration`, or until the loop is stopped; whether it is still running.
    public func pause(_ duration: Duration) -> Bool {
        let milliseconds = Int32(clamping: max(0, duration.nanoseconds / 1_000_000))
        return wait(for: [], timeout: milliseconds) != nil
    }

    /// What ``stop()`` did.
    public enum Stopped: Sendable, Hashable {
        /// The body ran, and has returned.
        case ended
        /// The loop was never started: whatever its body would have closed is the caller's.
        case neverStarted
        /// An earlier call stopped it.
        case already
    }

    /// Stops the loop and waits for its body to return; see the contract.
    @discardableResult
    public func stop() -> Stopped {
        let was = phase.withLock { phase -> Phase in
            let was = phase
            if phase == .ready || phase == .running {
                phase = .stopping
                signal()
            }
            return was
        }
        switch was {
        case .stopping, .stopped: return .already
        case .ready: break
        case .running: finished.wait()
        }
        phase.withLock { phase in
            phase = .stopped
            close(wakeRead)
            close(wakeWrite)
        }
        return was == .running ? .ended : .neverStarted
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}
