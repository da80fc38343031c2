import Basics
import Dispatch
import Testing
@testable import Reactive

@Suite("Schedulers")
struct SchedulerTests {
    @Test("TestScheduler runs actions at their deadlines, ties in scheduling order")
    func ordering() {
        let scheduler = TestScheduler()
        let log = Protected<[String]>([])
        scheduler.schedule(after: .milliseconds(20)) { log.withValue { $0.append("b@\(scheduler.now.nanoseconds / 1_000_000)") } }
        scheduler.schedule(after: .milliseconds(10)) { log.withValue { $0.append("a@\(scheduler.now.nanoseconds / 1_000_000)") } }
        scheduler.schedule(after: .milliseconds(20)) { log.withValue { $0.append("c") } }
        scheduler.schedule { log.withValue { $0.append("now") } }
        #expect(log.value.isEmpty)
        scheduler.advance(by: .milliseconds(15))
        #expect(log.value == ["now", "a@10"])
        #expect(scheduler.now == MonotonicInstant(nanoseconds: 15_000_000))
        scheduler.advance(by: .milliseconds(5))
        #expect(log.value == ["now", "a@10", "b@20", "c"])
    }

    @Test("repeating actions repeat at their interval until disposed")
    func repeating() {
        let scheduler = TestScheduler()
        let ticks = Protected<[Int64]>([])
        let timer = scheduler.schedule(every: .milliseconds(10)) {
            ticks.withValue { $0.append(scheduler.now.nanoseconds / 1_000_000) }
        }
        scheduler.advance(by: .milliseconds(35))
        #expect(ticks.value == [10, 20, 30])
        timer.dispose()
        scheduler.advance(by: .milliseconds(50))
        #expect(ticks.value == [10, 20, 30])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("actions may schedule further actions that fall due in the same advance")
    func nested() {
        let scheduler = TestScheduler()
        let log = Protected<[Int64]>([])
        scheduler.schedule(after: .milliseconds(5)) {
            scheduler.schedule(after: .milliseconds(5)) { log.withValue { $0.append(scheduler.now.nanoseconds / 1_000_000) } }
        }
        scheduler.advance(by: .milliseconds(10))
        #expect(log.value == [10])
    }

    @Test("a disposed action never runs")
    func cancellation() {
        let scheduler = TestScheduler()
        let ran = Protected(false)
        scheduler.schedule(after: .seconds(1)) { ran.withValue { $0 = true } }.dispose()
        scheduler.advance(by: .seconds(2))
        #expect(!ran.value)
    }

    @Test("ThreadScheduler runs actions in deadline order, those due at the same instant in scheduling order",
          .timeLimit(.minutes(1)))
    func threadSchedulerOrder() throws {
        for _ in 0..<20 {
            let scheduler = ThreadScheduler(named: "test.order")
            defer { scheduler.stop() }
            let log = Protected<[Int]>([])
            let done = DispatchSemaphore(value: 0)
            // Every deadline is fixed before anything is queued, and all but `schedule {}`'s lie
            // in the past, so the order cannot depend on how fast this thread queues them.
            let instant = scheduler.now - .milliseconds(1)
            let earlier = instant - .seconds(1)
            // Earliest of all, and held up on the queue, so that all the others are waiting when
            // the loop runs again.
            let gate = DispatchSemaphore(value: 0)
            scheduler.schedule(at: earlier - .seconds(1)) { gate.wait() }
            for index in 0..<50 { scheduler.schedule(at: instant) { log.withValue { $0.append(index) } } }
            scheduler.schedule(at: earlier) { log.withValue { $0.append(-1) } }
            scheduler.schedule { log.withValue { $0.append(-2) } }
            scheduler.schedule { done.signal() }
            gate.signal()
            try #require(arrives(done), "the scheduler's thread ran nothing within 20 s")
            let expected: [Int] = [-1] + Array(0..<50) + [-2]
            #expect(log.value == expected)
        }
    }

    @Test("ThreadScheduler: a repeating action repeats until disposed; a disposed one never runs", .timeLimit(.minutes(1)))
    func threadSchedulerRepeats() throws {
        let scheduler = ThreadScheduler(named: "test.repeat")
        defer { scheduler.stop() }
        let count = Protected(0)
        let third = DispatchSemaphore(value: 0)
        let cancelled = scheduler.schedule(after: .milliseconds(1)) { count.withValue { $0 += 1000 } }
        cancelled.dispose()
        let repeating = scheduler.schedule(every: .milliseconds(1)) {
            if count.withValue({ $0 += 1; return $0 }) == 3 { third.signal() }
        }
        try #require(arrives(third), "three ticks did not come within 20 s")
        scheduler.runAndWait { repeating.dispose() }
        let stopped = count.value
        let later = DispatchSemaphore(value: 0)
        scheduler.schedule(after: .milliseconds(5)) { later.signal() }
        try #require(arrives(later), "a later action did not run within 20 s")
        #expect(stopped >= 3 && stopped < 1000)
        #expect(count.value == stopped, "ran after being disposed")
    }
}
