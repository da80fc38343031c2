import Basics
import Dispatch
import TestSupport
import Testing
@testable import Reactive

// ReactiveSwift's Documentation/APIContracts.md, point by point, held against our core. Each
// test names the point; docs/CONTRACTS.md says for each whether ours is the same,
// stricter (and why) or not offered. The other suites test the types one by one; this one
// tests the promises a borrowed name makes, including across threads.

@Suite("API contracts: events")
struct EventContractTests {
    @Test("events are serial: 8 threads × 20,000 sends, none lost, doubled or overlapped")
    func serialAcrossThreads() {
        let (signal, input) = Signal<Int>.pipe()
        let inside = Protected(0), overlapped = Protected(false)
        let seen = Protected<[Int]>([])
        signal.observeValues { value in
            if inside.withValue({ $0 += 1; return $0 }) > 1 { overlapped.withValue { $0 = true } }
            seen.withValue { $0.append(value) }
            inside.withValue { $0 -= 1 }
        }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for value in 0..<20_000 { input.send(worker * 100_000 + value) }
        }
        let values = seen.value
        #expect(!overlapped.value)
        #expect(values.count == 160_000)
        #expect(Set(values).count == 160_000)
        // Each sender's values arrive in the order it sent them.
        for worker in 0..<8 {
            let own = values.filter { $0 / 100_000 == worker }
            #expect(own == own.sorted())
        }
    }

    // Values cannot be sent recursively (stricter: a trap with a message, not a deadlock):
    // PropertyTests' "sending into a signal from its own observer traps".

    @Test("a terminal event may be sent recursively: it follows the value in flight to every observer")
    func recursiveCompletionAllowed() {
        var pipe: Signal<Int>.Input? = nil
        let signal: Signal<Int>
        (signal, pipe) = Signal<Int>.pipe()
        let first = Recorder<Int>(), second = Recorder<Int>()
        signal.observe(first.observer)
        let input = Protected(pipe)
        pipe = nil
        signal.observeValues { _ in input.withValue { $0?.sendCompleted() } }
        signal.observe(second.observer)
        input.value?.send(1)
        input.value?.send(2)
        #expect(first.values == [1] && first.completed)
        #expect(second.values == [1] && second.completed)
        #expect(first.count == 2 && second.count == 2)
    }

    @Test("a bound mutable property released from its own observer completes instead of trapping")
    func boundPropertyReleasedFromItsObserver() {
        final class Holder: @unchecked Sendable { var property: MutableProperty<Int>? = MutableProperty(0) }
        let holder = Holder()
        let (source, input) = Signal<Int>.pipe()
        let seen = Recorder<Int>()
        do {
            guard let property = holder.property else { return }
            property <~ source
            property.signal.observe(seen.observer)
            property.signal.observeValues { _ in holder.property = nil }
        }
        input.send(1)
        #expect(holder.property == nil)
        #expect(seen.values == [1])
        #expect(seen.completed)
        input.send(2)  // the binding ended with its target: nothing to deliver to
        #expect(seen.count == 2)
    }

    @Test("events are sent synchronously: observers have run when send returns, on the sender's thread")
    func synchronous() {
        let (signal, input) = Signal<Int>.pipe()
        let thread = Protected<UInt>(0)
        signal.observeValues { _ in thread.withValue { $0 = Lock.currentThread } }
        input.send(1)
        #expect(thread.value == Lock.currentThread)
    }
}

@Suite("API contracts: signals")
struct SignalContractTests {
    @Test("a signal starts work when made, and observing has no side effect on it")
    func workStartsAtInit() {
        let starts = Protected(0)
        let (source, input) = Signal<Int>.pipe()
        let mapped = Signal<Int> { observer in
            starts.withValue { $0 += 1 }
            return source.observe(observer)
        }
        #expect(starts.value == 1)
        let a = Recorder<Int>(), b = Recorder<Int>()
        let observation = mapped.observe(a.observer)
        mapped.observe(b.observer)
        observation.dispose()
        input.send(1)
        #expect(starts.value == 1)
        #expect(b.values == [1] && a.values.isEmpty)
    }

    @Test("all observers see the same events in the same order, while others come and go on another thread")
    func sameOrderWhileObserversChurn() {
        let (signal, input) = Signal<Int>.pipe()
        let reference = Recorder<Int>()
        signal.observe(reference.observer)
        let churned = Protected<[(recorder: Recorder<Int>, atDispose: Int)]>([])
        let sending = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 0..<50_000 { input.send(value) }
            sending.signal()
        }
        var observations = 0, sent = false
        while !sent, observations < 2_000 {
            sent = sending.wait(timeout: .now()) == .success
            let recorder = Recorder<Int>()
            let observation = signal.observe(recorder.observer)
            observation.dispose()
            churned.withValue { $0.append((recorder, recorder.count)) }
            observations += 1
        }
        #expect(sent || arrives(sending, within: 60))
        let all = reference.values
        #expect(all == Array(0..<50_000))
        for (recorder, atDispose) in churned.value {
            // Disposal does not wait for a delivery in flight, so at most one event (the one
            // being delivered as dispose ran) may still arrive after it; none may start later.
            #expect(recorder.count <= atDispose + 1)
            let values = recorder.values
            // What each saw is a run of the reference, in its order, nothing doubled.
            if let first = values.first {
                #expect(values == Array(first..<(first + values.count)))
            }
        }
    }

    @Test("disposal never waits for a delivery in flight, so an observer waiting on the disposing thread cannot deadlock it")
    func disposeDuringBlockedDelivery() {
        let (signal, input) = Signal<Int>.pipe()
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let calls = Protected(0)
        let observation = signal.observeValues { _ in
            calls.withValue { $0 += 1 }
            entered.signal()
            // The reader waits for the other side, as one waiting on runAndWait would.
            release.wait()
        }
        DispatchQueue.global().async {
            input.send(1)
            finished.signal()
        }
        #expect(arrives(entered))
        DispatchQueue.global().async {
            observation.dispose()
            disposed.signal()
        }
        let disposedInTime = arrives(disposed)
        #expect(disposedInTime, "dispose() waited for the delivery in flight: deadlock")
        release.signal()
        #expect(arrives(finished))
        if !disposedInTime { _ = arrives(disposed) }
        // Disposed: the next event does not reach it.
        DispatchQueue.global().async {
            input.send(2)
            finished.signal()
        }
        #expect(arrives(finished))
        #expect(calls.value == 1)
    }

    @Test("a signal is alive while reachable or observed; terminating disposes its resources and releases its observers")
    func aliveWhileObservedThenReleased() {
        final class Resource: Sendable {}
        weak var weakResource: Resource?
        weak var weakObserverState: Resource?
        let (source, input) = Signal<Int>.pipe()
        let disposedUpstream = Protected(false)
        do {
            let resource = Resource()
            weakResource = resource
            let state = Resource()
            weakObserverState = state
            let derived = Signal<Int> { observer in
                let observation = source.observe(observer)
                return ActionDisposable {
                    withExtendedLifetime(resource) {}
                    disposedUpstream.withValue { $0 = true }
                    observation.dispose()
                }
            }
            derived.observeValues { _ in withExtendedLifetime(state) {} }
        }
        // Unreachable but observed: alive.
        #expect(!disposedUpstream.value && weakResource != nil)
        input.sendCompleted()
        #expect(disposedUpstream.value)
        #expect(weakResource == nil)
        #expect(weakObserverState == nil)
    }

    @Test("observing a terminated signal: differs, one completed event where ReactiveSwift sends interrupted")
    func lateObserverOfTerminated() {
        let (signal, input) = Signal<Int>.pipe()
        input.sendCompleted()
        let late = Recorder<Int>()
        let observation = signal.observe(late.observer)
        #expect(late.completed && late.count == 1)
        #expect(observation.isDisposed)
    }
}

@Suite("API contracts: producers, properties, bindings, actions")
struct ProducerPropertyContractTests {
    @Test("a producer starts work once per start; each start has its own timeline")
    func producerPerStart() {
        let starts = Protected(0)
        let producer = SignalProducer<Int> { observer in
            let run = starts.withValue { $0 += 1; return $0 }
            observer.send(run)
            observer.sendCompleted()
            return NoDisposable.shared
        }
        #expect(starts.value == 0)
        let a = Recorder<Int>(), b = Recorder<Int>()
        producer.start(a.observer)
        producer.map { $0 * 10 }.start(b.observer)
        #expect(a.values == [1] && b.values == [20])
        #expect(starts.value == 2)
    }

    @Test("disposing a start stops it: differs, silently, with no interrupted event")
    func producerDisposalSilent() {
        let property = MutableProperty(1)
        let seen = Recorder<Int>()
        let observation = property.producer.start(seen.observer)
        observation.dispose()
        property.value = 2
        #expect(seen.values == [1] && !seen.completed)
    }

    @Test("an observer reading the property's value sees the value it was sent (reentrant reads)")
    func readsInsideObserver() {
        let property = MutableProperty(0)
        let mismatches = Protected(0)
        property.signal.observeValues { value in
            if property.value != value { mismatches.withValue { $0 += 1 } }
        }
        property.producer.startWithValues { value in
            if property.value != value { mismatches.withValue { $0 += 1 } }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for value in 0..<5_000 { property.value = worker * 10_000 + value }
        }
        #expect(mismatches.value == 0)
    }

    @Test("reading a property inside its own modify: the same, with a clearer message naming the inout argument", .process)
    func readInsideModifyRefused() async {
        #if compiler(>=6.2)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = MutableProperty(1)
            property.modify { $0 = property.value + 1 }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("inside its own modify"), "\(stderr)")
        #endif
    }

    @Test("another thread reading during a modify sees the value from before it, never a torn one")
    func readDuringModifyFromAnotherThread() {
        let property = MutableProperty((0, 0))
        let torn = Protected(0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for _ in 0..<20_000 { property.modify { $0.0 += 1; $0.1 += 1 } }
            done.signal()
        }
        while done.wait(timeout: .now()) == .timedOut {
            let (a, b) = property.value
            if a != b { torn.withValue { $0 += 1 } }
        }
        #expect(torn.value == 0)
        #expect(property.value.0 == 20_000)
    }

    @Test("a binding ends when its source completes: nothing of it stays in the target's lifetime")
    func bindingEndsWithSource() {
        final class Captured: Sendable {}
        weak var weakCaptured: Captured?
        let target = MutableProperty(0)
        do {
            let captured = Captured()
            weakCaptured = captured
            let (source, input) = Signal<Int>.pipe()
            let into = BindingTarget<Int>(lifetime: target.lifetime) { value in
                withExtendedLifetime(captured) {}
                target.value = value
            }
            into <~ source
            input.send(3)
            input.sendCompleted()
        }
        #expect(target.value == 3)
        #expect(weakCaptured == nil, "the finished binding is still held by the target's lifetime")
        // And through a property's producer: the source property going away ends it too.
        weak var weakSource: MutableProperty<Int>?
        weak var weakCaptured2: Captured?
        do {
            let captured = Captured()
            weakCaptured2 = captured
            let source = MutableProperty(5)
            weakSource = source
            BindingTarget<Int>(lifetime: target.lifetime) { value in
                withExtendedLifetime(captured) {}
                target.value = value
            } <~ source
        }
        #expect(weakSource == nil)
        #expect(target.value == 5)
        #expect(weakCaptured2 == nil)
    }

    @Test("a finished binding's disposable, still held, keeps nothing of it alive (as in ReactiveSwift)")
    func finishedBindingLetsGo() {
        final class Captured: Sendable {}
        let target = MutableProperty(0)
        let (source, input) = Signal<Int>.pipe()
        weak var weakCaptured: Captured?
        var binding: (any Disposable)?
        do {
            let captured = Captured()
            weakCaptured = captured
            binding = BindingTarget<Int>(lifetime: target.lifetime) { value in
                withExtendedLifetime(captured) {}
                target.value = value
            } <~ source
        }
        input.send(1)
        #expect(weakCaptured != nil, "a running binding lets go of its observer")
        input.sendCompleted()
        #expect(target.value == 1)
        #expect(weakCaptured == nil, "the disposable of a finished binding still holds its observer")
        // Through a property's producer too: the source property going away ends the binding.
        weak var weakCaptured2: Captured?
        var binding2: (any Disposable)?
        do {
            let captured = Captured()
            weakCaptured2 = captured
            let property = MutableProperty(2)
            binding2 = BindingTarget<Int>(lifetime: target.lifetime) { value in
                withExtendedLifetime(captured) {}
                target.value = value
            } <~ property
        }
        #expect(target.value == 2)
        #expect(weakCaptured2 == nil, "the disposable of a finished binding still holds its observer")
        // Disposing a finished binding does nothing more.
        binding?.dispose()
        binding2?.dispose()
        #expect(binding?.isDisposed == true && binding2?.isDisposed == true)
    }

    @Test("an action runs serially: 4 threads applying at once never overlap, and every refusal is counted")
    func actionSerialAcrossThreads() {
        let inside = Protected(0), overlapped = Protected(false), ran = Protected(0)
        let action = Action<Int, Int> { input in
            if inside.withValue({ $0 += 1; return $0 }) > 1 { overlapped.withValue { $0 = true } }
            ran.withValue { $0 += 1 }
            inside.withValue { $0 -= 1 }
            return input
        }
        let refused = Protected(0), outputs = Protected(0)
        action.disabledAttempts.observeValues { _ in refused.withValue { $0 += 1 } }
        action.values.observeValues { _ in outputs.withValue { $0 += 1 } }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for value in 0..<5_000 { action.apply(worker * 10_000 + value) }
        }
        #expect(!overlapped.value)
        #expect(ran.value + refused.value == 20_000)
        #expect(outputs.value == ran.value)
        #expect(!action.isExecuting.value && action.isEnabled.value)
    }

    @Test("an action is executing and disabled while its work runs; applying it from inside is refused")
    func actionExecuting() {
        let states = Protected<[(executing: Bool, enabled: Bool)]>([])
        let nested = Protected<Int?>(0)
        var actionBox: Action<Int, Int>?
        let box = Protected<Action<Int, Int>?>(nil)
        actionBox = Action<Int, Int> { input in
            if let action = box.value {
                states.withValue { $0.append((action.isExecuting.value, action.isEnabled.value)) }
                nested.withValue { $0 = action.apply(input + 1) }
            }
            return input
        }
        box.withValue { $0 = actionBox }
        let refused = Recorder<Int>()
        actionBox?.disabledAttempts.observe(refused.observer)
        let executing = Recorder<Bool>()
        actionBox?.isExecuting.signal.observe(executing.observer)
        #expect(actionBox?.apply(1) == 1)
        #expect(states.value.map(\.executing) == [true])
        #expect(states.value.map(\.enabled) == [false])
        #expect(nested.value == nil)
        #expect(refused.values == [2])
        #expect(executing.values == [true, false])
        box.withValue { $0 = nil }
        actionBox = nil
    }
}
