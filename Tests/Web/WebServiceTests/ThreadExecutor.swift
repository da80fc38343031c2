import Basics
import Dispatch
import Synchronization

/// A thread of its own for a test's tasks that block (sockets it waits on, the server's events):
/// on the shared cooperative pool, which keeps about one thread per core, they would hold up the
/// other tests running beside them.
///
/// Runs jobs in the order they are enqueued until ``shutdown()``; jobs enqueued after it (a
/// task finishing late) run on Dispatch's pool instead, and the thread ends.
final class ThreadExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var open = true
    }

    private let queue = Locked(Queue())
    private let ready = DispatchSemaphore(value: 0)

    init() {
        LoopThread.start(named: "task executor") { [self] in
            while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = queue.withLock { queue in
            if queue.open { queue.jobs.append(job) }
            return queue.open
        }
        if queued {
            ready.signal()
        } else {
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
        }
    }

    /// Ends the thread once the jobs queued so far have run.
    func shutdown() {
        queue.withLock { $0.open = false }
        ready.signal()
    }

    /// The next job, waiting for one; nil once shut down and drained.
    private func next() -> UnownedJob? {
        while true {
            let (job, open) = queue.withLock { queue -> (UnownedJob?, Bool) in
                queue.jobs.isEmpty ? (nil, queue.open) : (queue.jobs.removeFirst(), true)
            }
            if let job { return job }
            if !open { return nil }
            ready.wait()
        }
    }
}
