import Basics
import Dispatch
import Testing
@testable import Reactive

/// `LoopTimer`, and the scheduler's `schedule(prepared:at:repeatingEvery:)` / `cancel(prepared:)`
/// under it.
@Suite("Loop timers")
struct LoopTimerTests {
    @Test("set again, a timer fires once, at its last setting; cancelled, it does not fire; it may be set after firing")
    func setAgain() {
        let clock = TestScheduler()
        let fired = Protected<[MonotonicInstant]>([])
        let timer = LoopTimer(on: clock) { fired.withValue { $0.append(clock.now) } }
        timer.set(after: .seconds(1))
        timer.set(after: .seconds(3))
        #expect(clock.pendingCount == 1, "a setting again left the first one queued")
        clock.advance(by: .seconds(2))
        #expect(fired.value.isEmpty, "fired at a setting it had moved")
        clock.advance(by: .seconds(1))
        #expect(fired.value == [.zero + .seconds(3)])
        #expect(!timer.isSet)
        timer.set(after: .seconds(1))
        #expect(timer.isSet)
        timer.cancel()
        #expect(!timer.isSet && clock.pendingCount == 0)
        clock.advance(by: .seconds(5))
        #expect(fired.value.count == 1, "fired after being cancelled")
        // Moved earlier: it fires at the new time, before a timer set in between for later.
        let order = Protected<[String]>([])
        let first = LoopTimer(on: clock) { order.withValue { $0.append("first") } }
        let second = LoopTimer(on: clock) { order.withValue { $0.append("second") } }
        first.set(after: .seconds(10))
        second.set(after: .seconds(5))
        first.set(after: .seconds(2))
        clock.advance(by: .seconds(10))
        #expect(order.value == ["first", "second"])
    }

    @Test("a repeating timer fires every interval until cancelled, stays set while it does, and may set itself from its action")
    func repeating() {
        let clock = TestScheduler()
        let count = Protected(0)
        let timer = LoopTimer(on: clock) { count.withValue { $0 += 1 } }
        timer.set(every: .milliseconds(100))
        clock.advance(by: .milliseconds(350))
        #expect(count.value == 3 && timer.isSet)
        // Set again mid-period: the phase starts over from now.
        timer.set(every: .milliseconds(100))
        clock.advance(by: .milliseconds(99))
        #expect(count.value == 3)
        clock.advance(by: .milliseconds(1))
        #expect(count.value == 4)
        timer.cancel()
        clock.advance(by: .seconds(1))
        #expect(count.value == 4 && !timer.isSet)

        // A one-shot timer that sets itself again from its action: a countdown that waits more.
        let rounds = Protected(0)
        let box = Protected<LoopTimer?>(nil)
        let again = LoopTimer(on: clock) {
            if rounds.withValue({ $0 += 1; return $0 }) < 3 { box.value?.set(after: .seconds(1)) }
        }
        box.withValue { $0 = again }
        again.set(after: .seconds(1))
        clock.advance(by: .seconds(10))
        #expect(rounds.value == 3 && !again.isSet)
    }

    @Test("setting and cancelling many timers keeps the queue's order: a heap kept whole when entries leave from its middle")
    func manyTimers() {
        let clock = TestScheduler()
        let fired = Protected<[Int]>([])
        let timers = (0..<40).map { index in LoopTimer(on: clock) { fired.withValue { $0.append(index) } } }
        // A fixed sequence (Knuth's MMIX constants): the same run every time.
        var state: UInt64 = 7
        let random = AnyIterator<UInt64> {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var expected: [Int: Int] = [:]
        for _ in 0..<400 {
            let index = Int((random.next() ?? 0) % 40)
            if (random.next() ?? 0) % 4 == 0 {
                timers[index].cancel()
                expected[index] = nil
            } else {
                // Distinct deadlines: milliseconds times 40 plus the index.
                let at = Int((random.next() ?? 0) % 1000) * 40 + index
                timers[index].set(at: .zero + .milliseconds(at))
                expected[index] = at
            }
        }
        #expect(clock.pendingCount == expected.count)
        clock.advance(by: .seconds(100))
        #expect(fired.value == expected.sorted { $0.value < $1.value }.map(\.key))
    }

    @Test("an owner's timers: cancelled together (each may be set again), invalidated together (none fires again, nor one made after)")
    func owned() {
        let clock = TestScheduler()
        let fired = Protected<[String]>([])
        let timers = LoopTimers(on: clock)
        let a = timers.make { fired.withValue { $0.append("a") } }
        let b = timers.make { fired.withValue { $0.append("b") } }
        a.set(after: .seconds(1))
        b.set(every: .seconds(1))
        timers.cancelAll()
        clock.advance(by: .seconds(3))
        #expect(fired.value.isEmpty && !a.isSet && !b.isSet)
        a.set(after: .seconds(1))
        b.set(after: .seconds(2))
        clock.advance(by: .seconds(1))
        #expect(fired.value == ["a"])
        timers.invalidateAll()
        let late = timers.make { fired.withValue { $0.append("late") } }
        a.set(after: .seconds(1))
        late.set(after: .seconds(1))
        clock.advance(by: .seconds(5))
        #expect(fired.value == ["a"], "a timer fired after its owner's timers were invalidated")
    }

    @Test("invalidated, a timer never fires again, wherever it was queued")
    func invalidated() {
        let clock = TestScheduler()
        let fired = Protected(false)
        let timer = LoopTimer(on: clock) { fired.withValue { $0 = true } }
        timer.set(after: .seconds(1))
        timer.invalidate()
        clock.advance(by: .seconds(2))
        #expect(!fired.value && !timer.isSet)
    }

    @Test("a loop stopped with an owner's last reference in its queue: the owner's deinit, invalidating its timer there, does not lock the loop up",
          .timeLimit(.minutes(1)))
    func ownerGoesWithTheQueue() {
        final class Owner: @unchecked Sendable {
            let timer: LoopTimer
            let gone: DispatchSemaphore
            init(loop: ThreadScheduler, gone: DispatchSemaphore) {
                timer = LoopTimer(on: loop) {}
                self.gone = gone
            }
            deinit {
                timer.invalidate()
                gone.signal()
            }
        }
        let loop = ThreadScheduler(named: "test loop")
        let gone = DispatchSemaphore(value: 0)
        do {
            let owner = Owner(loop: loop, gone: gone)
            loop.runAndWait { owner.timer.set(after: .seconds(3600)) }
            // The queue holds the owner's last reference: it goes when the stopped loop lets its queue go.
            loop.schedule(at: loop.now + .seconds(3600)) { withExtendedLifetime(owner) {} }
        }
        loop.stop()
        gone.wait()
    }

    @Test("on a ThreadScheduler: a timer set again fires once, on the loop, at its last setting", .timeLimit(.minutes(1)))
    func onThread() {
        let loop = ThreadScheduler(named: "test loop")
        defer { loop.stop() }
        let fired = Protected<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let timer = loop.runAndWait {
            LoopTimer(on: loop) {
                fired.withValue { $0.append(loop.isCurrent) }
                done.signal()
            }
        }
        loop.runAndWait {
            timer.set(after: .seconds(3600))
            timer.set(after: .milliseconds(1))
        }
        done.wait()
        loop.runAndWait {}
        #expect(fired.value == [true])
    }

    @Test("on the test clock, a repeating timer set five intervals in the past runs once now, as schedule(at:repeatingEvery:) does (it ran once per missed interval)")
    func pastRepeating() {
        let clock = TestScheduler(start: .zero + .seconds(10))
        let viaSchedule = Protected(0), viaTimer = Protected(0)
        let token = clock.schedule(at: .zero + .seconds(5), repeatingEvery: .seconds(1)) { viaSchedule.withValue { $0 += 1 } }
        let timer = LoopTimer(on: clock) { viaTimer.withValue { $0 += 1 } }
        timer.set(at: .zero + .seconds(5), repeatingEvery: .seconds(1))
        clock.advance()
        #expect(viaTimer.value == viaSchedule.value, "LoopTimer \(viaTimer.value) runs, schedule(at:repeatingEvery:) \(viaSchedule.value)")
        token.dispose()
        timer.invalidate()
    }

    @Test("on the test clock, a one-shot timer set in the past runs after an action already due now, as schedule(at:) does")
    func pastOneShotOrder() {
        let clock = TestScheduler(start: .zero + .seconds(10))
        let order = Protected<[String]>([])
        clock.schedule { order.withValue { $0.append("due now, scheduled first") } }
        let timer = LoopTimer(on: clock) { order.withValue { $0.append("timer set in the past") } }
        timer.set(at: .zero + .seconds(5))
        clock.schedule(at: .zero + .seconds(5)) { order.withValue { $0.append("schedule(at:) in the past") } }
        clock.advance()
        #expect(order.value == ["due now, scheduled first", "timer set in the past", "schedule(at:) in the past"])
        timer.invalidate()
    }
}
