import Basics
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Suite("Shutdown signal")
struct ShutdownSignalTests {
    @Test("a signal that arrives before anyone waits is the one the wait returns, and every later wait too")
    func caughtEarly() {
        let shutdown = ShutdownSignal([SIGUSR2])
        // With the default action, SIGUSR2 would end this test process here.
        #expect(kill(getpid(), SIGUSR2) == 0)
        #expect(shutdown.wait() == SIGUSR2)
        #expect(shutdown.wait() == SIGUSR2)
    }

    @Test("a signal that arrives while another thread waits ends its wait")
    func caughtWhileWaiting() async {
        let shutdown = ShutdownSignal([SIGUSR1])
        let (caught, record) = AsyncStream<Int32?>.makeStream()
        let (waiting, about) = AsyncStream<Void>.makeStream()
        LoopThread.start(named: "waiter") {
            about.yield()
            record.yield(shutdown.wait())
        }
        for await _ in waiting { break }
        #expect(kill(getpid(), SIGUSR1) == 0)
        var answers = caught.makeAsyncIterator()
        #expect(await answers.next() == SIGUSR1)
    }

    @Test("a log names the signals a service is stopped with")
    func names() {
        #expect(ShutdownSignal.name(of: SIGTERM) == "SIGTERM")
        #expect(ShutdownSignal.name(of: SIGINT) == "SIGINT")
        #expect(ShutdownSignal.name(of: SIGUSR1) == "signal \(SIGUSR1)")
    }

    @Test("an interrupt ends one wait with nil; a signal after it is still the next wait's answer")
    func interrupted() {
        let shutdown = ShutdownSignal([SIGWINCH])
        shutdown.interrupt()
        #expect(shutdown.wait() == nil)
        #expect(kill(getpid(), SIGWINCH) == 0)
        #expect(shutdown.wait() == SIGWINCH)
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
