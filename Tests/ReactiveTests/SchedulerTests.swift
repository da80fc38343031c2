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

    @Test("QueueScheduler runs actions serially in order on its queue")
    func queueScheduler() {
        let scheduler = QueueScheduler(label: "test")
        let log = Protected<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<100 { scheduler.schedule { log.withValue { $0.append(index) } } }
        scheduler.schedule(at: scheduler.now) { done.signal() }
        done.wait()
        #expect(log.value == Array(0..<100))
        #expect(scheduler.now > .zero)
    }
}
