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
    /// Starts `body` on a new detached thread; `name` says which loop in a failure's message.
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        final class Start {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Start(body)).toOpaque()
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
}
