import Basics
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

@Suite("The servers' poll loop")
struct PollLoopTests {
    @Test("a wait returns for a ready descriptor or a wake-up, and nil once the loop stops; stop waits for the body")
    func lifecycle() throws {
        let loop = PollLoop(named: "test")
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let turns = Locked<[String]>([])
        let turned = DispatchSemaphore(value: 0)
        let (reading, writing) = (ends[0], ends[1])
        loop.start { loop in
            while let ready = loop.wait(for: [pollfd(fd: reading, events: Int16(POLLIN), revents: 0)], timeout: -1) {
                if ready[0].revents != 0 {
                    var byte: UInt8 = 0
                    _ = read(reading, &byte, 1)
                    turns.withLock { $0.append("read \(byte)") }
                } else {
                    turns.withLock { $0.append("woken") }
                }
                turned.signal()
            }
            turns.withLock { $0.append("ended") }
        }
        var byte: UInt8 = 7
        _ = write(writing, &byte, 1)
        #expect(turned.wait(timeout: .now() + 20) == .success)
        loop.wake()
        #expect(turned.wait(timeout: .now() + 20) == .success)
        #expect(loop.stop() == .ended)
        #expect(turns.withLock { $0 } == ["read 7", "woken", "ended"])
        #expect(loop.isStopping)
        // Later calls do nothing, and write no wake-up into the closed pipe.
        loop.wake()
        #expect(loop.stop() == .already)
    }

    @Test("a loop never started stops at once and says so; a pause ends early when the loop stops")
    func neverStartedAndPause() {
        let idle = PollLoop(named: "idle")
        #expect(idle.stop() == .neverStarted)
        #expect(idle.stop() == .already)

        let loop = PollLoop(named: "pausing")
        let paused = Locked<Bool?>(nil)
        loop.start { loop in
            // An hour: only the stop ends it.
            let running = loop.pause(.seconds(3600))
            paused.withLock { $0 = running }
        }
        #expect(loop.stop() == .ended)
        #expect(paused.withLock { $0 } == false)
    }

    /// What a loop's body captured: a server, in the programs.
    private final class Captured: Sendable {}

    @Test("stop returns once the body has returned and been released: what it captured is the caller's alone (its last release never goes with the ending thread)")
    func bodyReleased() {
        for _ in 0..<100 {
            let loop = PollLoop(named: "test")
            var captured: Captured? = Captured()
            weak var watched = captured
            if let held = captured {
                loop.start { loop in
                    _ = held
                    while loop.wait(for: [], timeout: -1) != nil {}
                }
            }
            captured = nil
            #expect(watched != nil, "the running body holds it")
            #expect(loop.stop() == .ended)
            #expect(watched == nil, "released before stop returned")
        }
    }
}
