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
