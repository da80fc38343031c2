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

    @Test("combineLatest waits for both, then sends on each change, completes when both complete")
    func combineLatest() {
        let (a, aIn) = Signal<Int>.pipe()
        let (b, bIn) = Signal<String>.pipe()
        let recorder = Recorder<String>()
        Signal.combineLatest(a, b).map { "\($0)\($1)" }.observe(recorder.observer)
        aIn.send(1)
        aIn.send(2)
        bIn.send("x")
        aIn.send(3)
        bIn.send("y")
        aIn.sendCompleted()
        #expect(!recorder.completed)
        bIn.sendCompleted()
        #expect(recorder.values == ["2x", "3x", "3y"])
        #expect(recorder.completed)
    }

    @Test("combineLatest of three and four sources")
    func combineLatestMany() {
        let pipes = (0..<4).map { _ in Signal<Int>.pipe() }
        let three = Recorder<Int>(), four = Recorder<Int>()
        Signal.combineLatest(pipes[0].output, pipes[1].output, pipes[2].output).map { $0 + $1 + $2 }.observe(three.observer)
        Signal.combineLatest(pipes[0].output, pipes[1].output, pipes[2].output, pipes[3].output)
            .map { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.observe(four.observer)
        for (index, pipe) in pipes.enumerated() { pipe.input.send(index + 1) }
        pipes[0].input.send(5)
        #expect(three.values == [6, 10])
        #expect(four.values == [1234, 5234])
    }

    @Test("skipRepeats drops consecutive duplicates only")
    func skipRepeats() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = Recorder<Int>()
        signal.skipRepeats().observe(recorder.observer)
        for value in [1, 1, 2, 2, 1, 3, 3] { input.send(value) }
        #expect(recorder.values == [1, 2, 1, 3])
    }

    @Test("startWith and prefix deliver first, to each observer")
    func startWith() {
        let (signal, input) = Signal<Int>.pipe()
        let first = Recorder<Int>(), second = Recorder<Int>()
        let started = signal.startWith(0)
        started.observe(first.observer)
        input.send(1)
        started.observe(second.observer)
        input.send(2)
        #expect(first.values == [0, 1, 2])
        #expect(second.values == [0, 2])
        let prefixed = Recorder<Int>()
        signal.prefix(7, 8).observe(prefixed.observer)
        #expect(prefixed.values == [7, 8])
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
