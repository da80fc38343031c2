import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The signals that ask the service to stop gracefully (SIGTERM from systemd; SIGINT, SIGHUP
/// and SIGQUIT from a terminal that is interrupted or closed), caught from the moment this is
/// made and turned into a wait the main thread blocks in.
///
/// ## Contract
/// - From ``init(_:)`` on, the signals' default action (ending the process at once, LEDs lit)
///   is replaced: a signal is only recorded. They are unblocked on the thread that makes it
///   (a mask inherited from the parent must not make the program deaf to them). Make it before the board starts, so that a SIGTERM
///   during start-up also ends in a graceful stop. The signals stay caught for the life of the
///   process: a second SIGTERM during the shutdown does not cut it short (systemd's stop timeout
///   and SIGKILL still bound it).
/// - The first signal caught is the one ``wait()`` returns, at once if it came earlier.
/// - ``interrupt()``, from any thread, ends the current or next wait with `nil` (once per call):
///   a part of the service that failed stops it this way, and a test asks for a stop.
/// - One waiter, and one `ShutdownSignal` per signal number at a time (the newest one made
///   catches it).
///
/// The handler only writes the signal's number into a pipe (async-signal-safe); the waiting
/// thread reads it. Signal dispositions are process-wide, so this works whichever thread the
/// kernel picks to deliver the signal on.
public final class ShutdownSignal: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let first = Locked<Int32??>(nil)

    public init(_ signals: [Int32] = endingSignals) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 {
            fatalError("no pipe for the shutdown signal: \(String(cString: strerror(errno)))")
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The handler must never block, even if nobody reads.
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        let table = signalPipes
        var caught = sigset_t()
        sigemptyset(&caught)
        for number in signals where number > 0 && Int(number) < signalTableSize {
            table[Int(number)] = writeEnd
            var action = sigaction()
            action.__sigaction_handler.sa_handler = recordSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
            sigaddset(&caught, number)
        }
        // A signal mask survives exec: a parent that spawned the program from a thread blocking
        // these (Foundation's Process from a Dispatch worker does) would leave it deaf to them.
        // Unblocked on this thread, and so on every thread it starts from here on.
        pthread_sigmask(SIG_UNBLOCK, &caught, nil)
    }

    /// Blocks the calling thread until the first of the signals and returns it, or `nil` when
    /// ``interrupt()`` came first.
    public func wait() -> Int32? {
        if let known = first.withLock({ $0 }) { return known }
        var byte: UInt8 = 0
        var count: Int
        repeat { count = read(readEnd, &byte, 1) } while count < 0 && errno == EINTR
        let caught: Int32? = count == 1 && byte != 0 ? Int32(byte) : nil
        if caught != nil { first.withLock { $0 = caught } }
        return caught
    }

    /// Ends the current or next ``wait()`` with `nil`: byte 0 is no signal.
    public func interrupt() {
        var zero: UInt8 = 0
        _ = write(writeEnd, &zero, 1)
    }

    /// "SIGTERM", "SIGINT", … or "signal N" for the others: how a log names what arrived.
    public static func name(of number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(number)"
        }
    }
}

private let signalTableSize = 65

/// The pipe each signal number's handler writes to; -1 for none. Made before any handler is
/// installed, and never reallocated, so the handler reads it without locks or allocation.
private nonisolated(unsafe) let signalPipes: UnsafeMutablePointer<Int32> = {
    let table = UnsafeMutablePointer<Int32>.allocate(capacity: signalTableSize)
    table.initialize(repeating: -1, count: signalTableSize)
    return table
}()

/// The signal handler: async-signal-safe, it only writes the number into the signal's pipe.
private let recordSignal: @convention(c) (Int32) -> Void = { number in
    let saved = errno
    let fd = signalPipes[Int(number)]
    if fd >= 0 {
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(fd, &byte, 1)
    }
    errno = saved
}
