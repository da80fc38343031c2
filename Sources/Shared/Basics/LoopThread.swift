#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for a loop that blocks (in `poll`) for the life of a part: a server's
/// accept-and-relay loop, a client's reconnecting link.
///
/// Not a Dispatch queue: a loop that never returns holds one of Dispatch's worker threads for
/// good, and Linux's Dispatch keeps only about one worker per core busy before it adds more, so
/// on a two-core Pi two such loops leave every other queue of the process waiting.
public enum LoopThread {
    /// Starts `body` on a new detached thread; `name` says which loop in a failure's message and
    /// names the thread (``name(_:)``).
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        final class Start {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(
            Start {
                LoopThread.name(name)
                body()
            }
        ).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
            start.body()
            return nil
        }, context)
        guard status == 0 else {
            fatalError("LoopThread: no thread for \(name): \(String(cString: strerror(status)))")
        }
        pthread_detach(thread)
    }

    /// Names the calling thread `name` (its first 15 bytes: the kernel's limit), as `top -H`,
    /// `ps -L` and a core dump show it; a thread otherwise inherits its creator's name. Written
    /// to `/proc/thread-self/comm`: Glibc's `pthread_setname_np` is not imported into Swift.
    public static func name(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
