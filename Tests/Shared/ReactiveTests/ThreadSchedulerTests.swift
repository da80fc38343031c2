import Basics
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Reactive

@Suite("Thread scheduler")
struct ThreadSchedulerTests {
    @Test("actions run in order on one thread, and are counted")
    func serialOnOneThread() {
        let scheduler = ThreadScheduler(named: "test loop")
        defer { scheduler.stop() }
        let log = Protected<[Int]>([])
        let threads = Protected<Set<UInt>>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<50 {
            scheduler.schedule {
                log.withValue { $0.append(index) }
                threads.withValue { _ = $0.insert(UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))) }
            }
        }
        scheduler.schedule(at: scheduler.now) { done.signal() }
        done.wait()
        #expect(log.value == Array(0..<50))
        #expect(threads.value.count == 1)
        // runAndWait runs on the loop's thread as well, after what is queued, and waits for it.
        let order = Protected<[String]>([])
        scheduler.schedule { order.withValue { $0.append("queued") } }
        scheduler.runAndWait {
            order.withValue { $0.append("waited for") }
            threads.withValue { _ = $0.insert(UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))) }
        }
        #expect(order.value == ["queued", "waited for"])
        #expect(threads.value.count == 1)
    }

    @Test("a disposed action does not run; a repeating one stops when disposed")
    func cancellation() {
        let scheduler = ThreadScheduler(named: "test loop")
        defer { scheduler.stop() }
        let ran = Protected(0)
        scheduler.schedule(after: .milliseconds(1)) { ran.withValue { $0 += 100 } }.dispose()
        let ticks = DispatchSemaphore(value: 0)
        let timer = scheduler.schedule(every: .milliseconds(1)) { ran.withValue { $0 += 1 }; ticks.signal() }
        ticks.wait()
        ticks.wait()
        timer.dispose()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule { done.signal() }
        done.wait()
        let after = ran.value
        #expect(after >= 2 && after < 100)
    }
}
