#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A non-recursive mutex that knows its owner, so that re-entry is reported as the programming
/// error it is instead of deadlocking silently. A plain (fast) pthread mutex; the owner check is
/// its own: only the owning thread can find its own id in `owner`.
///
/// Used to serialize event delivery: a ``Signal`` holds its delivery lock while observers run, so
/// an observer that sends into the signal it is observing is caught here with `message`.
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let owner = Atomic<UInt>(0)

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Whether the calling thread holds the lock right now.
    var isHeldByCurrentThread: Bool {
        owner.load(ordering: .relaxed) == Self.currentThread
    }

    /// Takes the lock; traps with `message` if the calling thread already holds it.
    func lock(orFail message: @autoclosure () -> String = "lock taken recursively") {
        let me = Self.currentThread
        // fatalError, not precondition: the message must reach the journal in release builds.
        if owner.load(ordering: .relaxed) == me { fatalError(message()) }
        pthread_mutex_lock(mutex)
        owner.store(me, ordering: .relaxed)
    }

    func unlock() {
        owner.store(0, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
    }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// The calling thread's identity, never 0.
    static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}

/// State that needs no lock because something else already serializes every access to it: the
/// actions of one serial ``Scheduler`` (the game loop), or the deliveries of one signal (its
/// delivery lock). The compiler cannot see that; this type is where the code says so, and each
/// use names what serializes it.
public final class Confined<State>: @unchecked Sendable {
    public var value: State

    public init(_ value: State) { self.value = value }
}
