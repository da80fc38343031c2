import Dispatch
import Synchronization

/// Runs jobs one at a time, in the order submitted, on a thread of its own that starts when a
/// job arrives and ends when none is left: for writes to a card that may stall.
///
/// Not a Dispatch queue: a job stuck in `fsync` on a slow SD card holds the thread it runs on,
/// and Linux's Dispatch keeps only about one worker per core busy (see ``LoopThread``); nor a
/// thread parked for the life of the process when there is nothing to write. A job's calls are
/// all made by one thread, which no other worker's jobs share (what a test that counts a save's
/// system calls per thread relies on).
///
/// ## Contract
/// - ``submit(_:)`` never waits for a job; jobs run in submission order, never two at once.
/// - ``wait()`` returns once every job submitted before it was called has run; ``wait(atMost:)``
///   gives up after a while.
public final class SerialWorker: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var running = false
    }

    private let name: String
    private let state = Locked(State())
    private let busy = DispatchGroup()

    /// `name` says whose thread it is in a failure's message.
    public init(named name: String) {
        self.name = name
    }

    /// Leaves `job` to run after those already submitted.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard !state.running else { return false }
            state.running = true
            // Entered before the lock is let go: a wait() that sees this job submitted waits for it.
            busy.enter()
            return true
        }
        guard start else { return }
        LoopThread.start(named: name) { [self] in
            while let job = next() { job() }
            busy.leave()
        }
    }

    /// Waits until every job submitted so far has run.
    public func wait() { busy.wait() }

    /// ``wait()``, for at most `limit`; whether every job had run by then.
    public func wait(atMost limit: Duration) -> Bool {
        let (seconds, attoseconds) = limit.components
        return busy.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))) == .success
    }

    private func next() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard !state.jobs.isEmpty else {
                state.running = false
                return nil
            }
            return state.jobs.removeFirst()
        }
    }
}
