import Basics
import Dispatch
import Testing
@testable import Reactive

@Suite("Signal")
struct SignalTests {
    @Test("observers get values in send order, then completion, then nothing")
    func orderAndTermination() {
        let (signal, input) = Signal<Int>.pipe()
        let first = Recorder<Int>(), second = Recorder<Int>()
        signal.observe(first.observer)
        signal.observe(second.observer)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        input.send(3)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
        #expect(first.completed && second.completed)
        #expect(first.count == 3)
    }

    @Test("a late observer misses earlier values; observing a completed signal completes at once")
    func hotAndCompleted() {
        let (signal, input) = Signal<Int>.pipe()
        input.send(1)
        let late = Recorder<Int>()
        signal.observe(late.observer)
        input.send(2)
        input.sendCompleted()
        let after = Recorder<Int>()
        signal.observe(after.observer)
        #expect(late.values == [2])
        #expect(after.completed && after.values.isEmpty)
    }

    @Test("no event after disposal, even when an earlier observer disposes a later one mid-delivery")
    func disposal() {
        let (signal, input) = Signal<Int>.pipe()
        let later = Recorder<Int>()
        let laterObservation = Protected<(any Disposable)?>(nil)
        signal.observeValues { value in
            if value == 2 { laterObservation.value?.dispose() }
        }
        laterObservation.withValue { $0 = signal.observe(later.observer) }
        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        #expect(later.values == [1])
        #expect(!later.completed)
    }

    @Test("releasing the input completes the signal")
    func inputReleaseCompletes() {
        var pipe: (output: Signal<Int>, input: Signal<Int>.Input)? = Signal<Int>.pipe()
        let recorder = Recorder<Int>()
        pipe?.output.observe(recorder.observer)
        pipe = nil
        #expect(recorder.completed)
    }

    @Test("observers do not keep the input alive, and a disposed observer is released")
    func memory() {
        final class Owner: Sendable {}
        weak var weakInput: Signal<Int>.Input?
        weak var weakOwner: Owner?
        let signal: Signal<Int>
        do {
            let (output, input) = Signal<Int>.pipe()
            signal = output
            weakInput = input
            let owner = Owner()
            weakOwner = owner
            let observation = signal.observeValues { _ in withExtendedLifetime(owner) {} }
            observation.dispose()
        }
        #expect(weakInput == nil)
        #expect(weakOwner == nil)
        _ = signal
    }

    @Test("concurrent senders are serialized: observers never run twice at once")
    func concurrentSendersSerialized() {
        let (signal, input) = Signal<Int>.pipe()
        let inside = Protected(0)
        let maxInside = Protected(0)
        let total = Protected(0)
        signal.observeValues { _ in
            let now = inside.withValue { $0 += 1; return $0 }
            maxInside.withValue { $0 = max($0, now) }
            total.withValue { $0 += 1 }
            inside.withValue { $0 -= 1 }
        }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for value in 0..<2_000 { input.send(worker * 10_000 + value) }
        }
        #expect(total.value == 16_000)
        #expect(maxInside.value == 1)
    }

    @Test("map, filter and compactMap transform per value and pass completion")
    func mapFilter() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = Recorder<String>()
        signal.filter { $0 % 2 == 0 }.map { "\($0)" }.observe(recorder.observer)
        let compact = Recorder<Int>()
        signal.compactMap { $0 > 2 ? $0 * 10 : nil }.observe(compact.observer)
        for value in 1...5 { input.send(value) }
        input.sendCompleted()
        #expect(recorder.values == ["2", "4"])
        #expect(recorder.completed)
        #expect(compact.values == [30, 40, 50])
    }

    @Test("merge interleaves in arrival order and completes when all sources complete")
    func merge() {
        let pipes = (0..<3).map { _ in Signal<Int>.pipe() }
        let recorder = Recorder<Int>()
        Signal.merge(pipes.map(\.output)).observe(recorder.observer)
        pipes[2].input.send(20)
        pipes[0].input.send(0)
        pipes[1].input.send(10)
        pipes[0].input.sendCompleted()
        pipes[1].input.sendCompleted()
        #expect(!recorder.completed)
        pipes[2].input.send(21)
        pipes[2].input.sendCompleted()
        #expect(recorder.values == [20, 0, 10, 21])
        #expect(recorder.completed)
        let empty = Recorder<Int>()
        Signal<Int>.merge([]).observe(empty.observer)
        #expect(empty.completed)
    }

    @Test("skipRepeats drops consecutive duplicates only")
    func skipRepeats() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = Recorder<Int>()
        signal.skipRepeats().observe(recorder.observer)
        for value in [1, 1, 2, 2, 1, 3, 3] { input.send(value) }
        #expect(recorder.values == [1, 2, 1, 3])
    }

    @Test("an operator observes its source once, however many observers it has (hot, shared)")
    func operatorsShareOneObservation() {
        let (signal, input) = Signal<Int>.pipe()
        let transforms = Protected(0)
        let mapped = signal.map { value -> Int in
            transforms.withValue { $0 += 1 }
            return value * 2
        }
        let first = Recorder<Int>(), second = Recorder<Int>(), third = Recorder<Int>()
        mapped.observe(first.observer)
        mapped.observe(second.observer)
        input.send(1)
        mapped.observe(third.observer)
        input.send(2)
        // Three observers, two values: the transform ran once per value, not once per observer.
        #expect(transforms.value == 2)
        #expect(first.values == [2, 4] && second.values == [2, 4])
        #expect(third.values == [4])
        // skipRepeats' memory is the signal's, shared: a late observer does not see a repeat.
        let deduplicated = signal.skipRepeats()
        let early = Recorder<Int>()
        deduplicated.observe(early.observer)
        input.send(5)
        let late = Recorder<Int>()
        deduplicated.observe(late.observer)
        input.send(5)
        input.send(6)
        #expect(early.values == [5, 6])
        #expect(late.values == [6])
    }

    @Test("a chain nobody holds or observes stops observing its source and is freed")
    func unobservedChainIsReleased() {
        let (signal, input) = Signal<Int>.pipe()
        weak var weakMapped: Signal<Int>?
        let transforms = Protected(0)
        let recorder = Recorder<Int>()
        var observation: (any Disposable)?
        do {
            let mapped = signal.map { value -> Int in
                transforms.withValue { $0 += 1 }
                return value
            }
            weakMapped = mapped
            observation = mapped.filter { _ in true }.observe(recorder.observer)
        }
        // Held by nobody, but observed: alive.
        input.send(1)
        #expect(recorder.values == [1])
        observation?.dispose()
        #expect(weakMapped == nil)
        input.send(2)
        #expect(transforms.value == 1)
        #expect(recorder.values == [1])
    }

    @Test("thousands of observers each get an event once; those disposed mid-delivery get nothing")
    func manyObservers() {
        let (signal, input) = Signal<Int>.pipe()
        let count = Protected(0)
        let observations = (0..<2_000).map { _ in signal.observeValues { _ in count.withValue { $0 += 1 } } }
        input.send(1)
        #expect(count.value == 2_000)
        // Every observer disposes every other one as it is reached: those not yet reached get
        // nothing, whatever their place in the list.
        let (other, otherInput) = Signal<Int>.pipe()
        let received = Protected(0)
        let disposables = Protected<[any Disposable]>([])
        for _ in 0..<1_000 {
            let observation = other.observeValues { _ in
                received.withValue { $0 += 1 }
                for disposable in disposables.value { disposable.dispose() }
            }
            disposables.withValue { $0.append(observation) }
        }
        otherInput.send(1)
        #expect(received.value == 1)
        for observation in observations { observation.dispose() }
        input.send(2)
        #expect(count.value == 2_000)
    }

    @Test("observe(on:) delivers on the scheduler, in order, and drops what is pending after disposal")
    func observeOn() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = Recorder<Int>()
        let observation = signal.observe(on: scheduler).observe(recorder.observer)
        input.send(1)
        input.send(2)
        #expect(recorder.values.isEmpty)
        scheduler.advance()
        #expect(recorder.values == [1, 2])
        input.send(3)
        observation.dispose()
        scheduler.advance()
        #expect(recorder.values == [1, 2])
    }
}
