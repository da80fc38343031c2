import Basics
import Dispatch
import TestSupport
import Testing
@testable import Reactive

@Suite("Property")
struct PropertyTests {
    @Test("a producer sends the current value first, then each change once")
    func currentValueFirst() {
        let property = MutableProperty(1)
        let recorder = Recorder<Int>()
        property.producer.start(recorder.observer)
        property.value = 2
        property.modify { $0 += 10 }
        #expect(recorder.values == [1, 2, 12])
        let changes = Recorder<Int>()
        property.signal.observe(changes.observer)
        property.value = 3
        #expect(changes.values == [3])
    }

    @Test("none missed or doubled while another thread keeps changing the value")
    func noneMissedOrDoubled() {
        let property = MutableProperty(0)
        let recorders = Protected<[Recorder<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            if worker == 0 {
                for value in 1...5_000 { property.value = value }
            } else {
                for _ in 0..<50 {
                    let recorder = Recorder<Int>()
                    property.producer.start(recorder.observer)
                    recorders.withValue { $0.append(recorder) }
                }
            }
        }
        for recorder in recorders.value {
            let values = recorder.values
            // Consecutive integers from where it joined up to the last value: no gap, no repeat.
            #expect(values.last == 5_000)
            #expect(values == Array((values.first ?? 0)...5_000))
        }
    }

    @Test("map follows its source; a map of a map runs each transform once per change")
    func derived() {
        let a = MutableProperty(1)
        let runs = Protected(0)
        let doubled = a.map { value -> Int in
            runs.withValue { $0 += 1 }
            return value * 2
        }
        let text = doubled.map { "\($0)" }
        #expect(doubled.value == 2)
        #expect(text.value == "2")
        let recorder = Recorder<String>()
        text.producer.start(recorder.observer)
        let other = Recorder<String>()
        text.signal.observe(other.observer)
        a.value = 5
        #expect(doubled.value == 10)
        #expect(recorder.values == ["2", "10"])
        #expect(other.values == ["10"])
        // One change, two observers of the chain: the transform ran once for it.
        #expect(runs.value == 2)
    }

    @Test("a composed property does not keep its source alive, and keeps its last value when it goes")
    func composedDoesNotRetainSource() {
        weak var weakSource: MutableProperty<Int>?
        let derived: Property<Int>
        let completed = Recorder<Int>()
        do {
            let source = MutableProperty(1)
            weakSource = source
            derived = source.map { $0 * 10 }
            derived.signal.observe(completed.observer)
            source.value = 2
        }
        #expect(weakSource == nil)
        #expect(derived.value == 20)
        #expect(completed.values == [20])
        #expect(completed.completed)
    }

    @Test("skipRepeats property announces only real changes")
    func skipRepeatsProperty() {
        let source = MutableProperty(1)
        let parity = source.map { $0 % 2 }.skipRepeats()
        let recorder = Recorder<Int>()
        parity.signal.observe(recorder.observer)
        for value in [3, 5, 6, 8, 9] { source.value = value }
        #expect(recorder.values == [0, 1])
    }

    @Test("Property(initial:then:) starts at initial and follows the signal")
    func initialThen() {
        let (signal, input) = Signal<Int>.pipe()
        let property = Property(initial: 0, then: signal)
        #expect(property.value == 0)
        input.send(4)
        #expect(property.value == 4)
    }

    @Test("a composed property held by nobody follows its source while observed, and stops when the observation ends")
    func derivedKeptAliveByObservation() {
        let source = MutableProperty(1)
        let recorder = Recorder<Int>()
        let transforms = Protected(0)
        let observation = source.map { value -> Int in
            transforms.withValue { $0 += 1 }
            return value + 100
        }.producer.start(recorder.observer)
        source.value = 2
        #expect(recorder.values == [101, 102])
        observation.dispose()
        source.value = 3
        #expect(recorder.values == [101, 102])
        // Released and unobserved, it no longer observes its source: no transform for 3.
        #expect(transforms.value == 2)
    }

    // Exit tests arrived in Swift 6.2; under Debian's 6.0.3 these two are not compiled [6.0.3: exit-tests].
    #if compiler(>=6.2)
    @Test("setting a property from its own observer is a programming error that traps", .process)
    func recursiveSetTraps() async {
        await #expect(processExitsWith: .failure) {
            let property = MutableProperty(0)
            property.signal.observeValues { value in property.value = value + 1 }
            property.value = 1
        }
    }

    @Test("sending into a signal from its own observer traps", .process)
    func recursiveSendTraps() async {
        await #expect(processExitsWith: .failure) {
            let (signal, input) = Signal<Int>.pipe()
            signal.observeValues { value in if value < 3 { input.send(value + 1) } }
            input.send(1)
        }
    }
    #endif
}

@Suite("Bindings and lifetimes")
struct BindingTests {
    @Test("a binding from a property delivers the current value, then changes")
    func bindProperty() {
        let source = MutableProperty(1)
        let target = MutableProperty(0)
        target <~ source
        #expect(target.value == 1)
        source.value = 7
        #expect(target.value == 7)
    }

    @Test("a binding ends when the target is deallocated, and the target is not kept alive")
    func bindingEndsWithTarget() {
        let (signal, input) = Signal<Int>.pipe()
        weak var weakTarget: MutableProperty<Int>?
        let seen = Recorder<Int>()
        do {
            let target = MutableProperty(0)
            weakTarget = target
            target <~ signal
            target.signal.observe(seen.observer)
            input.send(1)
        }
        #expect(weakTarget == nil)
        input.send(2)
        #expect(seen.values == [1])
    }

    @Test("a binding ends when disposed")
    func bindingDisposed() {
        let (signal, input) = Signal<Int>.pipe()
        let target = MutableProperty(0)
        let binding = target <~ signal
        input.send(1)
        binding.dispose()
        input.send(2)
        #expect(target.value == 1)
    }

    @Test("a lifetime runs its end actions once, and at once when already ended")
    func lifetime() {
        let ran = Protected(0)
        var token: Lifetime.Token? = nil
        let lifetime: Lifetime
        (lifetime, token) = Lifetime.make()
        lifetime.observeEnded { ran.withValue { $0 += 1 } }
        let withdrawn = lifetime.observeEnded { ran.withValue { $0 += 100 } }
        withdrawn.dispose()
        #expect(!lifetime.hasEnded)
        token = nil
        #expect(lifetime.hasEnded)
        lifetime.observeEnded { ran.withValue { $0 += 10 } }
        #expect(ran.value == 11)
        _ = token
    }
}

@Suite("Action")
struct ActionTests {
    @Test("apply runs only while enabled; isEnabled follows its property")
    func enabledIf() {
        let enabled = MutableProperty(false)
        let runs = Protected(0)
        let action = Action<Int, Int>(enabledIf: enabled) { input in
            runs.withValue { $0 += 1 }
            return input * 2
        }
        let outputs = Recorder<Int>()
        action.values.observe(outputs.observer)
        #expect(action.apply(1) == nil)
        #expect(!action.isEnabled.value)
        enabled.value = true
        #expect(action.isEnabled.value)
        #expect(action.apply(2) == 4)
        #expect(runs.value == 1)
        #expect(outputs.values == [4])
    }

    @Test("binding a signal into an action applies it per value")
    func bindIntoAction() {
        let (taps, input) = Signal<Void>.pipe()
        let count = Protected(0)
        let action = Action<Void, Void> { count.withValue { $0 += 1 } }
        action <~ taps
        input.send()
        input.send()
        #expect(count.value == 2)
    }
}
