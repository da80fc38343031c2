import Basics
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Suite("Shutdown signal")
struct ShutdownSignalTests {
    @Test("a signal that arrives before anyone waits is the one the wait returns")
    func caughtEarly() async {
        let shutdown = ShutdownSignal([SIGUSR2])
        // With the default action, SIGUSR2 would end this test process here.
        #expect(kill(getpid(), SIGUSR2) == 0)
        #expect(await shutdown.wait() == SIGUSR2)
    }

    @Test("a signal that arrives while waiting ends the wait")
    func caughtWhileWaiting() async {
        let shutdown = ShutdownSignal([SIGUSR1])
        async let caught = shutdown.wait()
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(await caught == SIGUSR1)
    }

    @Test("a log names the signals a service is stopped with")
    func names() {
        #expect(ShutdownSignal.name(of: SIGTERM) == "SIGTERM")
        #expect(ShutdownSignal.name(of: SIGINT) == "SIGINT")
        #expect(ShutdownSignal.name(of: SIGUSR1) == "signal \(SIGUSR1)")
    }

    @Test("cancelling the waiting task ends the wait with nil")
    func cancelled() async {
        let shutdown = ShutdownSignal([SIGWINCH])
        let waiter = Task { await shutdown.wait() }
        waiter.cancel()
        #expect(await waiter.value == nil)
    }
}

@Suite("Ending signals")
struct EndingSignalsTests {
    @Test("an ending signal the moment it is caught runs the handler, once: none is lost between catching and handling")
    func caughtAtOnce() async {
        let (handled, record) = AsyncStream<Int32>.makeStream()
        let signals = catchEndingSignals { record.yield($0) }
        // With SIGHUP's default action this would end the test process here.
        #expect(kill(getpid(), SIGHUP) == 0)
        var numbers = handled.makeAsyncIterator()
        #expect(await numbers.next() == SIGHUP)
        signals.cancel()
    }
}
