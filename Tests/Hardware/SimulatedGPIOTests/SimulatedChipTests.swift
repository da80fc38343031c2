import Basics
import Reactive
import SimulatedGPIO
import Testing
@testable import GPIO

@Suite("Simulated chip")
struct SimulatedChipTests {
    let scheduler = TestScheduler()

    private func inputs(_ chip: SimulatedChip, _ offsets: [LineOffset], bias: Bias = .pullUp) throws -> any InputLines {
        try chip.requestInputs(InputConfiguration(offsets: offsets, bias: bias, consumer: "test"))
    }

    @Test("undriven inputs read their bias: pull-up high, otherwise low")
    func bias() throws {
        let chip = SimulatedChip(clock: scheduler)
        let up = try inputs(chip, [4])
        let down = try inputs(chip, [5], bias: .pullDown)
        let floating = try inputs(chip, [6], bias: .disabled)
        #expect(try up.level(of: 4) == .high)
        #expect(try down.level(of: 5) == .low)
        #expect(try floating.level(of: 6) == .low)
    }

    @Test("driving a line sends one edge per real change, stamped with the clock")
    func edges() throws {
        let chip = SimulatedChip(clock: scheduler)
        let lines = try inputs(chip, [4, 17])
        let seen = Protected<[EdgeEvent]>([])
        lines.events.observeValues { event in seen.withValue { $0.append(event) } }
        scheduler.advance(by: .milliseconds(3))
        chip.drive(4, to: .low)
        chip.drive(4, to: .low)
        scheduler.advance(by: .milliseconds(2))
        chip.drive(4, to: nil)
        chip.drive(17, to: .high)  // already high through the pull-up: no edge
        #expect(seen.value == [
            EdgeEvent(offset: 4, edge: .falling, timestamp: MonotonicInstant(nanoseconds: 3_000_000)),
            EdgeEvent(offset: 4, edge: .rising, timestamp: MonotonicInstant(nanoseconds: 5_000_000)),
        ])
    }

    @Test("a bounce burst alternates and settles on the final level")
    func bounce() throws {
        let chip = SimulatedChip(clock: scheduler)
        let lines = try inputs(chip, [4])
        let seen = Protected<[EdgeEvent.Edge]>([])
        lines.events.observeValues { event in seen.withValue { $0.append(event.edge) } }
        chip.bounce(4, settlingAt: .low, toggles: 5, spacing: .microseconds(500))
        scheduler.advance(by: .milliseconds(10))
        #expect(seen.value == [.falling, .rising, .falling, .rising, .falling])
        #expect(try lines.level(of: 4) == .low)
    }

    @Test("a line held by one request is busy for the next, naming the holder")
    func busy() throws {
        let chip = SimulatedChip(clock: scheduler)
        let held = try inputs(chip, [4])
        #expect(throws: GPIOError.lineBusy(chip: chip.name, offset: 4, consumer: "test")) {
            try chip.requestOutputs(OutputConfiguration(offsets: [4], initialLevel: .low, consumer: "other"))
        }
        held.release()
        #expect(chip.consumer(of: 4) == nil)
        let output = try chip.requestOutputs(OutputConfiguration(offsets: [4], initialLevel: .low, consumer: "other"))
        #expect(chip.consumer(of: 4) == "other")
        withExtendedLifetime(output) {}
    }

    @Test("offsets beyond the chip and duplicates are refused without claiming anything")
    func badOffsets() throws {
        let chip = SimulatedChip(lineCount: 28, clock: scheduler)
        #expect(throws: GPIOError.offsetOutOfRange(chip: chip.name, offset: 40, lineCount: 28)) {
            try chip.requestInputs(InputConfiguration(offsets: [3, 40], bias: .pullUp, consumer: "t"))
        }
        #expect(throws: GPIOError.duplicateLine(chip: chip.name, offset: 3)) {
            try chip.requestInputs(InputConfiguration(offsets: [3, 3], bias: .pullUp, consumer: "t"))
        }
        #expect(chip.consumer(of: 3) == nil)
    }

    @Test("a line past the chip's end is named with the lines the chip has, in words")
    func outOfRangeWords() {
        #expect(GPIOError.offsetOutOfRange(chip: "gpiochip0", offset: 40, lineCount: 28).description
                == "gpiochip0 has no line 40: it has lines 0 to 27. Check the pin numbers in the configuration, and the chip.")
        #expect(GPIOError.offsetOutOfRange(chip: "gpiochip9", offset: 3, lineCount: 1).description.contains("its only line is 0"))
        #expect(GPIOError.offsetOutOfRange(chip: "gpiochip9", offset: 3, lineCount: 0).description.contains("it has no lines at all"))
        #expect(GPIOError.system(chip: "gpiochip0", operation: "reading events", errno: 21, message: "is a directory").description
                == "gpiochip0: reading events failed: is a directory.")
        #expect(GPIOError.chipNotFound(spec: "a\u{1B}[2J", available: []).description.hasPrefix("no GPIO chip matches \"aU+001B[2J\""))
    }

    @Test("output writes are recorded with their time; unrequested lines are refused")
    func outputs() throws {
        let chip = SimulatedChip(clock: scheduler)
        let lines = try chip.requestOutputs(OutputConfiguration(offsets: [23, 9], initialLevel: .low, consumer: "leds"))
        scheduler.advance(by: .milliseconds(1))
        try lines.set([LineSetting(23, .high), LineSetting(9, .high)])
        #expect(throws: GPIOError.notRequested(chip: chip.name, offset: 10)) { try lines.set([LineSetting(10, .high)]) }
        let history = chip.outputHistory
        #expect(history.count == 2)
        #expect(history.last?.time == MonotonicInstant(nanoseconds: 1_000_000))
        #expect(history.last?.levels[23] == .high && history.last?.levels[9] == .high)
        #expect(chip.level(of: 23) == .high)
    }

    @Test("outputs keep their level after release, and a released request refuses writes")
    func releaseKeepsLevels() throws {
        let chip = SimulatedChip(clock: scheduler)
        let lines = try chip.requestOutputs(OutputConfiguration(offsets: [12], initialLevel: .low, consumer: "leds"))
        try lines.set([LineSetting(12, .high)])
        lines.release()
        lines.release()
        #expect(chip.level(of: 12) == .high)
        #expect(throws: GPIOError.released(chip: chip.name)) { try lines.set([LineSetting(12, .low)]) }
    }

    @Test("releasing inputs completes their events")
    func releaseCompletes() throws {
        let chip = SimulatedChip(clock: scheduler)
        let lines = try inputs(chip, [4])
        let completed = Protected(false)
        lines.events.observeCompleted { completed.withValue { $0 = true } }
        lines.release()
        #expect(completed.value)
    }

    @Test("the history window gives the levels at its start and the writes inside it")
    func historyWindow() throws {
        let chip = SimulatedChip(clock: scheduler, historyCapacity: 16)
        let lines = try chip.requestOutputs(OutputConfiguration(offsets: [5], initialLevel: .low, consumer: "x"))
        for step in 1...40 {
            scheduler.advance(by: .milliseconds(1))
            try lines.set([LineSetting(5, LineLevel(step % 2 == 1))])
        }
        let window = chip.outputHistory(from: MonotonicInstant(nanoseconds: 35_500_000), to: MonotonicInstant(nanoseconds: 38_000_000))
        #expect(window.initial[5] == .high)  // write 35 (odd) is the last before the window
        #expect(window.writes.map { $0.time.nanoseconds / 1_000_000 } == [36, 37, 38])
        #expect(chip.outputHistory.count <= 16)
    }
}
