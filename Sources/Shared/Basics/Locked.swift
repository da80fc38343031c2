#if SANITIZE_THREAD
/// A value behind a lock, for the state the reactive core, the loops and the servers share
/// between threads: Synchronization's `Mutex`, but in ThreadSanitizer's build (`make sanitize`,
/// `-DSANITIZE_THREAD`), where it is ``Protected``, a POSIX mutex the sanitizer sees (it does
/// not see `Mutex` order two sections on Linux). Not ``Protected`` in every build: Swift 6.0.3's
/// release build crashes deserialising a specialisation of its section taken across modules
/// (the reactive core's, in the view model) [6.0.3: optimiser-crash].
public typealias Locked<Value> = Protected<Value>

extension Protected {
    /// `Mutex`'s name for a section, so that the same code builds on either.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withValue(body)
    }
}
#else
import Synchronization

/// A value behind a lock, for the state the reactive core, the loops and the servers share
/// between threads: Synchronization's `Mutex`, but in ThreadSanitizer's build (`make sanitize`,
/// `-DSANITIZE_THREAD`), where it is ``Protected``, a POSIX mutex the sanitizer sees (it does
/// not see `Mutex` order two sections on Linux). Not ``Protected`` in every build: Swift 6.0.3's
/// release build crashes deserialising a specialisation of its section taken across modules
/// (the reactive core's, in the view model) [6.0.3: optimiser-crash].
public typealias Locked<Value> = Mutex<Value>
#endif
