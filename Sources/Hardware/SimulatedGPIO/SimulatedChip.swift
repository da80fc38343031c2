import Basics
import GPIO
import Reactive

/// A GPIO chip in memory, for play and tests: the stand-in for the Pi's header chip.
///
/// The program side uses it through ``GPIOChip`` exactly as it would use libgpiod. The outside
/// world (a test, the terminal's keys) drives input lines with ``drive(_:to:)`` — a pressed
/// button pulls its line low — and reads back every output write, timestamped on the
/// scheduler's clock, from ``outputHistory(from:to:)`` or ``outputWrites``.
///
/// ## Contract
/// - An undriven input line reads its bias: high with pull-up, low otherwise (as `gpio-sim`,
///   whose lines idle pulled down). So forgetting the pull-up shows up as a stuck button.
/// - Edge events are delivered synchronously on the thread that drives the line, stamped with
///   the clock's `now`. A change that does not change the level sends nothing.
/// - A line belongs to at most one request; a second request for it fails with
///   ``GPIOError/lineBusy(chip:offset:consumer:)`` naming the holder, like the kernel's EBUSY.
/// - Output lines keep their last level after release, as real hardware does, so a program
///   that forgets to switch its LEDs off is caught.
/// - The output history keeps the most recent `historyCapacity` writes; with a capacity of 0
///   it keeps none and only counts them (``outputWriteCount``), for benchmarks.
/// - ``failWrites(with:times:)`` makes output writes fail as a driver's would (EIO from a chip
///   gone bad, EAGAIN once): a failed write changes no level and is not in the history.
public final class SimulatedChip: GPIOChip {
    public let name: String
    public let label: String
    public let lineCount: Int
    private let clock: any Scheduler
    private let historyCapacity: Int

    private enum Role { case free, input(request: Int, bias: Bias), output(request: Int) }

    private struct Line {
        var role: Role = .free
        var consumer: String?
        var externalDrive: LineLevel?
        var outputLevel: LineLevel = .low
        /// Still drives `outputLevel`: an output, or a released one that nothing has taken since.
        var drivesOutput = false
    }

    private struct State {
        var lines: [Line]
        var nextRequest = 0
        var outputs = LineLevels()
        var history: [OutputWrite] = []
        var writeCount = 0
        var historyStart = OutputWrite(time: .zero, levels: LineLevels())
        var inputs: [Int: Signal<EdgeEvent>.Input] = [:]
        /// The error output writes fail with, and how many more fail (`nil`: all of them).
        var writeFault: (error: GPIOError, remaining: Int?)?
        var failedWrites = 0
    }

    private let state: Protected<State>
    private let writes: (output: Signal<OutputWrite>, input: Signal<OutputWrite>.Input)

    /// A chip with `lineCount` lines (at most 64) whose timestamps come from `clock`.
    public init(
        name: String = "gpiochip-sim", label: String = "tictactoe-sim", lineCount: Int = 28,
        clock: any Scheduler, historyCapacity: Int = 65_536
    ) {
        require((1...LineLevels.capacity).contains(lineCount), "SimulatedChip: 1...64 lines")
        self.name = name
        self.label = label
        self.lineCount = lineCount
        self.clock = clock
        self.historyCapacity = historyCapacity == 0 ? 0 : max(historyCapacity, 16)
        state = Protected(State(lines: Array(repeating: Line(), count: lineCount)))
        writes = Signal<OutputWrite>.pipe()
        state.withValue { $0.historyStart.time = clock.now }
    }

    // MARK: GPIOChip

    public func requestInputs(_ configuration: InputConfiguration) throws(GPIOError) -> any InputLines {
        let (events, input) = Signal<EdgeEvent>.pipe()
        let id = try claim(configuration.offsets, consumer: configuration.consumer) { id in
            .input(request: id, bias: configuration.bias)
        }
        state.withValue { $0.inputs[id] = input }
        return SimulatedInputLines(chip: self, id: id, offsets: configuration.offsets, events: events)
    }

    public func requestOutputs(_ configuration: OutputConfiguration) throws(GPIOError) -> any OutputLines {
        let id = try claim(configuration.offsets, consumer: configuration.consumer) { id in .output(request: id) }
        let lines = SimulatedOutputLines(chip: self, id: id, offsets: configuration.offsets)
        try lines.set(configuration.offsets.map { LineSetting($0, configuration.initialLevel) })
        return lines
    }

    private func claim(
        _ offsets: [LineOffset], consumer: String, role: (Int) -> Role
    ) throws(GPIOError) -> Int {
        let result: Result<Int, GPIOError> = state.withValue { state in
            var seen = Set<LineOffset>()
            for offset in offsets {
                guard Int(offset.rawValue) < lineCount else {
                    return .failure(.offsetOutOfRange(chip: name, offset: offset, lineCount: lineCount))
                }
                guard seen.insert(offset).inserted else { return .failure(.duplicateLine(chip: name, offset: offset)) }
                let line = state.lines[Int(offset.rawValue)]
                if case .free = line.role {} else {
                    return .failure(.lineBusy(chip: name, offset: offset, consumer: line.consumer))
                }
            }
            let id = state.nextRequest
            state.nextRequest += 1
            for offset in offsets {
                let index = Int(offset.rawValue)
                state.lines[index].role = role(id)
                state.lines[index].consumer = consumer
                if case .output = state.lines[index].role {
                    state.lines[index].drivesOutput = true
                } else {
                    state.lines[index].drivesOutput = false
                }
            }
            return .success(id)
        }
        return try result.get()
    }

    // MARK: The outside world

    /// Drives an input line from outside: `.low` is a pressed button to ground, `nil` lets go
    /// (the line returns to its bias).
    public func drive(_ offset: LineOffset, to level: LineLevel?) {
        let delivery = state.withValue { state -> (Signal<EdgeEvent>.Input, EdgeEvent)? in
            let index = Int(offset.rawValue)
            guard state.lines.indices.contains(index) else { return nil }
            let before = Self.inputLevel(state.lines[index])
            state.lines[index].externalDrive = level
            let after = Self.inputLevel(state.lines[index])
            guard before != after, case .input(let id, _) = state.lines[index].role,
                  let input = state.inputs[id] else { return nil }
            return (input, EdgeEvent(offset: offset, edge: after == .high ? .rising : .falling, timestamp: clock.now))
        }
        if let (input, event) = delivery { input.send(event) }
    }

    /// Drives a line through a contact bounce: `toggles` alternating levels `spacing` apart,
    /// starting at once, then settles at `final` (`nil`: let go). Runs on the clock's scheduler,
    /// so in virtual time the test advances through it.
    public func bounce(_ offset: LineOffset, settlingAt final: LineLevel?, toggles: Int, spacing: Duration) {
        let opposite: LineLevel = (final ?? .high) == .high ? .low : .high
        for step in 0..<toggles {
            let level: LineLevel? = step % 2 == 0 ? final : opposite
            clock.schedule(after: spacing * step) { [weak self] in self?.drive(offset, to: level) }
        }
        clock.schedule(after: spacing * toggles) { [weak self] in self?.drive(offset, to: final) }
    }

    /// The level a line reads now: its output level for outputs, else its drive or bias.
    public func level(of offset: LineOffset) -> LineLevel {
        state.withValue { state in
            let line = state.lines[Int(offset.rawValue)]
            return line.drivesOutput ? line.outputLevel : Self.inputLevel(line)
        }
    }

    /// The consumer name of whoever holds a line, or `nil` when it is free.
    public func consumer(of offset: LineOffset) -> String? {
        state.withValue { state in
            if case .free = state.lines[Int(offset.rawValue)].role { return nil }
            return state.lines[Int(offset.rawValue)].consumer
        }
    }

    /// The levels of all output lines now (released lines keep their last level).
    public var outputLevels: LineLevels { state.withValue { $0.outputs } }

    /// How many output writes there have been.
    public var outputWriteCount: Int { state.withValue { $0.writeCount } }

    /// Makes output writes fail with `error`: the next `times` of them, or every one until
    /// ``healWrites()`` when `times` is `nil`. What a test uses for a chip whose driver starts
    /// returning errors mid-game (gpio-sim cannot fail a write).
    public func failWrites(with error: GPIOError, times: Int? = nil) {
        let fault = times.map { $0 > 0 } == false ? nil : (error: error, remaining: times)
        state.withValue { $0.writeFault = fault }
    }

    /// Output writes work again.
    public func healWrites() {
        state.withValue { $0.writeFault = nil }
    }

    /// How many output writes have failed (``failWrites(with:times:)``).
    public var failedWriteCount: Int { state.withValue { $0.failedWrites } }

    /// Every output write as it happens, on the writer's thread.
    public var outputWrites: Signal<OutputWrite> { writes.output }

    /// The output levels at `start` and every write after it up to `end`, oldest first. When the
    /// history no longer reaches back to `start`, it begins at the oldest write it kept.
    public func outputHistory(from start: MonotonicInstant, to end: MonotonicInstant) -> (initial: LineLevels, writes: [OutputWrite]) {
        state.withValue { state in
            let history = state.history
            // First index with time > start (binary search: the history is in time order).
            var low = 0, high = history.count
            while low < high {
                let mid = (low + high) / 2
                if history[mid].time <= start { low = mid + 1 } else { high = mid }
            }
            let initial = low > 0 ? history[low - 1].levels : state.historyStart.levels
            var writes: [OutputWrite] = []
            var index = low
            while index < history.count, history[index].time <= end {
                writes.append(history[index])
                index += 1
            }
            return (initial, writes)
        }
    }

    /// Every output write still kept, oldest first.
    public var outputHistory: [OutputWrite] { state.value.history }

    // MARK: Used by the requests

    fileprivate func write(_ settings: [LineSetting], request id: Int) throws(GPIOError) {
        let result: Result<OutputWrite, GPIOError> = state.withValue { state in
            for setting in settings {
                let index = Int(setting.offset.rawValue)
                guard state.lines.indices.contains(index),
                      case .output(let owner) = state.lines[index].role, owner == id else {
                    return .failure(.notRequested(chip: name, offset: setting.offset))
                }
            }
            if let fault = state.writeFault {
                state.failedWrites += 1
                if let remaining = fault.remaining {
                    state.writeFault = remaining > 1 ? (fault.error, remaining - 1) : nil
                }
                return .failure(fault.error)
            }
            for setting in settings {
                state.lines[Int(setting.offset.rawValue)].outputLevel = setting.level
                state.outputs[setting.offset] = setting.level
            }
            let record = OutputWrite(time: clock.now, levels: state.outputs)
            state.writeCount += 1
            guard historyCapacity > 0 else { return .success(record) }
            state.history.append(record)
            if state.history.count > historyCapacity {
                let dropped = state.history.count - historyCapacity / 2
                state.historyStart = state.history[dropped - 1]
                state.history.removeFirst(dropped)
            }
            return .success(record)
        }
        writes.input.send(try result.get())
    }

    fileprivate func currentLevel(_ offset: LineOffset, request id: Int) throws(GPIOError) -> LineLevel {
        let result: Result<LineLevel, GPIOError> = state.withValue { state in
            let index = Int(offset.rawValue)
            guard state.lines.indices.contains(index), case .input(let owner, _) = state.lines[index].role,
                  owner == id else { return .failure(.notRequested(chip: name, offset: offset)) }
            return .success(Self.inputLevel(state.lines[index]))
        }
        return try result.get()
    }

    fileprivate func release(request id: Int) {
        let input = state.withValue { state -> Signal<EdgeEvent>.Input? in
            for index in state.lines.indices {
                switch state.lines[index].role {
                case .input(let owner, _) where owner == id, .output(let owner) where owner == id:
                    state.lines[index].role = .free
                    state.lines[index].consumer = nil
                default: break
                }
            }
            return state.inputs.removeValue(forKey: id)
        }
        input?.sendCompleted()
    }

    private static func inputLevel(_ line: Line) -> LineLevel {
        if let drive = line.externalDrive { return drive }
        if case .input(_, .pullUp) = line.role { return .high }
        return .low
    }
}

/// One request's claim on the chip: released once, by `release()` or when dropped.
private final class Claim: Sendable {
    let chip: SimulatedChip
    let id: Int
    private let released = Protected(false)

    init(chip: SimulatedChip, id: Int) {
        self.chip = chip
        self.id = id
    }

    var isLive: Bool { !released.value }

    func ensureLive() throws(GPIOError) {
        if released.value { throw .released(chip: chip.name) }
    }

    func release() {
        let first = released.withValue { released -> Bool in
            defer { released = true }
            return !released
        }
        if first { chip.release(request: id) }
    }

    deinit { release() }
}

private final class SimulatedInputLines: InputLines {
    let offsets: [LineOffset]
    let events: Signal<EdgeEvent>
    private let claim: Claim

    init(chip: SimulatedChip, id: Int, offsets: [LineOffset], events: Signal<EdgeEvent>) {
        claim = Claim(chip: chip, id: id)
        self.offsets = offsets
        self.events = events
    }

    func level(of offset: LineOffset) throws(GPIOError) -> LineLevel {
        try claim.ensureLive()
        return try claim.chip.currentLevel(offset, request: claim.id)
    }

    var isListening: Bool { claim.isLive }

    func release() { claim.release() }
}

private final class SimulatedOutputLines: OutputLines {
    let offsets: [LineOffset]
    private let claim: Claim

    init(chip: SimulatedChip, id: Int, offsets: [LineOffset]) {
        claim = Claim(chip: chip, id: id)
        self.offsets = offsets
    }

    func set(_ settings: [LineSetting]) throws(GPIOError) {
        try claim.ensureLive()
        try claim.chip.write(settings, request: claim.id)
    }

    func release() { claim.release() }
}
