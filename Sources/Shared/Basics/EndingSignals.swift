#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals that end the program when it is stopped from outside: SIGTERM (systemd, `kill`),
/// SIGINT (Ctrl-C, `kill -INT`), SIGHUP (the terminal closed) and SIGQUIT. Every command that
/// lights LEDs or changes the terminal catches all of them, to switch the LEDs off and put the
/// terminal back on its way out.
public let endingSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

/// Catches every one of ``endingSignals`` from now on: instead of ending the process, the first
/// one runs `handler` with its number, on a thread of its own (not inside the signal handler, so
/// it may do anything). Caught from the moment this returns (``ShutdownSignal``): Dispatch's signal
/// sources, used before, were installed on Dispatch's own time after the signal was set to be
/// ignored, and a signal that came between was lost (the web view then never stopped).
/// ``EndingSignals/cancel()`` stops running the handler; the signals stay caught.
public func catchEndingSignals(_ handler: @escaping @Sendable (Int32) -> Void) -> EndingSignals {
    EndingSignals(handler)
}

/// What ``catchEndingSignals(_:)`` returns.
public final class EndingSignals: Sendable {
    private let caught = ShutdownSignal(endingSignals)

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        let caught = caught
        LoopThread.start(named: "ending signals") {
            if let number = caught.wait() { handler(number) }
        }
    }

    /// The handler runs no more (a signal after this is caught and nothing happens).
    public func cancel() { caught.interrupt() }
}
