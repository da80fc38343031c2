#if SANITIZE_THREAD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Synchronization
#endif

/// A value guarded by a mutex, for short critical sections: what every section of the project's
/// code that shares state between threads uses (a test holds the sources to it).
///
/// Synchronization's `Mutex`, but in ThreadSanitizer's build (`make sanitize`: `-sanitize=thread
/// -DSANITIZE_THREAD`; Swift has no condition for the sanitizer itself), where it is a POSIX
/// mutex that checks its owner. On Linux the sanitizer does not see `Mutex` order two sections
/// (Swift 6.3.1: two threads counting under `Mutex.withLock` are reported as a race), and it
/// knows `pthread_mutex_lock` and `pthread_mutex_unlock`, which exclude each other as `Mutex`
/// does, so a race it reports is one in the code around the sections. `Mutex` stays everywhere
/// else: fewer instructions on the press's path (Benchmarks/budgets.txt).
///
/// ## Contract
/// Not recursive: a section must not reach the same `Protected` again (both locks trap on it), so
/// what it calls (a property's `modify` runs its caller's closure here) must not send an event or
/// run a callback that could. The value is reached only inside a section.
public final class Protected<State>: @unchecked Sendable {
    #if SANITIZE_THREAD
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    #else
    private let mutex = Mutex<Void>(())
    #endif
    private var state: State

    public init(_ state: State) {
        self.state = state
        #if SANITIZE_THREAD
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #endif
    }

    #if SANITIZE_THREAD
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Locks, trapping as `Mutex` does when the calling thread holds the lock already.
    private func lock() {
        let status = pthread_mutex_lock(mutex)
        if status == EDEADLK { fatalError("Protected: a section took its own lock again") }
    }
    #endif

    /// Runs `body` with the value, the lock held.
    public func withValue<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if SANITIZE_THREAD
        lock()
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
        #else
        return try mutex.withLock { _ in try body(&state) }
        #endif
    }

    /// A copy of the value. Not `withValue { $0 }` [6.0.3: optimiser-crash]: Debian's Swift 6.0.3
    /// crashes (an assertion in SIL deserialization) on that specialisation, taken by a release
    /// build across modules.
    public var value: State {
        #if SANITIZE_THREAD
        lock()
        defer { pthread_mutex_unlock(mutex) }
        return state
        #else
        mutex.withLock { _ in state }
        #endif
    }
}
