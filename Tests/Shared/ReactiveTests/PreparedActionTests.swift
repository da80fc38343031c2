import Basics
import Dispatch
import Testing
@testable import Reactive

/// `schedule(prepared:)` and the hop built on it (`observe(on:)`), on each scheduler.
@Suite("Prepared actions and the hop")
struct PreparedActionTests {
    @Test("TestScheduler: a prepared action runs once per scheduling, in order with the others, and never once disposed")
    func preparedInVirtualTime() {
        let scheduler = TestScheduler()
        let log = Protected<[String]>([])
        let prepared = ScheduledAction { log.withValue { $0.append("prepared") } }
        scheduler.schedule { log.withValue { $0.append("before") } }
        scheduler.schedule(prepared: prepared)
        scheduler.schedule { log.withValue { $0.append("after") } }
        scheduler.advance()
        scheduler.schedule(prepared: prepared)
        scheduler.advance()
        #expect(log.value == ["before", "prepared", "after", "prepared"])
        scheduler.schedule(prepared: prepared)
        prepared.dispose()
        scheduler.schedule(prepared: prepared)
        scheduler.advance(by: .seconds(1))
        #expect(log.value.count == 4)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("ThreadScheduler: a prepared action runs on the scheduler, once per scheduling, after what is queued before it",
          .timeLimit(.minutes(1)))
    func preparedOnRealSchedulers() {
        let thread = ThreadScheduler(named: "test loop")
        defer { thread.stop() }
        for scheduler in [thread] as [any Scheduler] {
            let log = Protected<[Int]>([])
            let done = DispatchSemaphore(value: 0)
            let prepared = ScheduledAction { log.withValue { $0.append(-1) } }
            // Each round queues a plain action, then the prepared one, and waits for both.
            for round in 0..<200 {
                scheduler.schedule { log.withValue { $0.append(round) } }
                scheduler.schedule(prepared: prepared)
                scheduler.schedule { done.signal() }
                done.wait()
            }
            let expected = (0..<200).flatMap { [$0, -1] }
            #expect(log.value == expected, "\(type(of: scheduler))")
        }
    }

    @Test("observe(on:): events sent from another thread arrive on the scheduler, in order, none lost or doubled",
          .timeLimit(.minutes(1)))
    func hopAcrossThreads() {
        let scheduler = ThreadScheduler(named: "test loop")
        defer { scheduler.stop() }
        let (signal, input) = Signal<Int>.pipe()
        let seen = Protected<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let observation = signal.observe(on: scheduler).observeValues { value in
            seen.withValue { $0.append(value) }
            if value == 19_999 { done.signal() }
        }
        DispatchQueue.global().async {
            for value in 0..<20_000 { input.send(value) }
        }
        done.wait()
        #expect(seen.value == Array(0..<20_000))
        observation.dispose()
    }

    @Test("observe(on:): what is queued when the observation is disposed is dropped, even in the middle of a batch")
    func hopDropsAfterDisposal() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let seen = Protected<[Int]>([])
        let observation = Protected<(any Disposable)?>(nil)
        observation.withValue { slot in
            slot = signal.observe(on: scheduler).observeValues { value in
                seen.withValue { $0.append(value) }
                // The second of a batch of five ends the observation: the rest is not delivered.
                if value == 1 { observation.value?.dispose() }
            }
        }
        for value in 0..<5 { input.send(value) }
        scheduler.advance()
        #expect(seen.value == [0, 1])
        input.send(9)
        scheduler.advance()
        #expect(seen.value == [0, 1])
        #expect(scheduler.pendingCount == 0)
    }
}
