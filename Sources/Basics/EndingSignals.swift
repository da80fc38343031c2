import Dispatch
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

/// Catches every one of ``endingSignals`` from now on: instead of ending the process, each runs
/// `handler` with its number, on a dispatch queue (not inside the signal handler, so it may
/// do anything). Cancel the returned sources to stop catching them.
public func catchEndingSignals(_ handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
    endingSignals.map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { handler(number) }
        source.resume()
        return source
    }
}
