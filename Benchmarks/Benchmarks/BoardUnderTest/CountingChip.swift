import Basics
import GPIO
import Reactive

/// A chip that does the least a chip can: inputs are a pipe the benchmark sends edges into,
/// and outputs keep the levels written (one 64-bit word) and count the writes. Nothing is
/// recorded or allocated per write, so a benchmark on it measures the program, not the
/// simulated chip's bookkeeping.
public final class CountingChip: GPIOChip, @unchecked Sendable {
    public let name = "counting"
    public let label = "counting sink"
    public let lineCount = LineLevels.capacity
    /// What the outputs show now, and how many writes made it so. Touched on the benchmark's
    /// one thread only.
    public private(set) var levels = LineLevels()
    public private(set) var writes = 0
    private var edgeInputs: [Signal<EdgeEvent>.Input] = []

    public init() {}

    public func requestInputs(_ configuration: InputConfiguration) throws(GPIOError) -> any InputLines {
        let lines = CountingInputs(offsets: configuration.offsets)
        edgeInputs.append(lines.input)
        return lines
    }

    public func requestOutputs(_ configuration: OutputConfiguration) throws(GPIOError) -> any OutputLines {
        CountingOutputs(offsets: configuration.offsets, chip: self)
    }

    /// An edge on an input line, as the kernel would report it.
    public func send(_ event: EdgeEvent) {
        levels[event.offset] = event.edge.level
        for input in edgeInputs { input.send(event) }
    }

    fileprivate func apply(_ settings: [LineSetting]) {
        // Bit by bit, without `LineLevels`' range check: the request's lines are all below 64.
        var bits = levels.bits
        for setting in settings {
            let mask: UInt64 = 1 << UInt64(setting.offset.rawValue & 63)
            bits = setting.level.isHigh ? bits | mask : bits & ~mask
        }
        levels.bits = bits
        writes += 1
    }
}

private final class CountingInputs: InputLines, @unchecked Sendable {
    let offsets: [LineOffset]
    let events: Signal<EdgeEvent>
    let input: Signal<EdgeEvent>.Input

    init(offsets: [LineOffset]) {
        self.offsets = offsets
        (events, input) = Signal<EdgeEvent>.pipe()
    }

    func level(of offset: LineOffset) throws(GPIOError) -> LineLevel {
        // Buttons are active-low and idle high.
        .high
    }

    var isListening: Bool { true }
    func release() {}
}

private final class CountingOutputs: OutputLines, @unchecked Sendable {
    let offsets: [LineOffset]
    private let chip: CountingChip

    init(offsets: [LineOffset], chip: CountingChip) {
        self.offsets = offsets
        self.chip = chip
    }

    func set(_ settings: [LineSetting]) throws(GPIOError) { chip.apply(settings) }
    func release() {}
}

/// What the press benchmarks need of a chip: press and release a button line, and read the
/// LED lines' levels.
public protocol BenchmarkChip: GPIOChip {
    func press(_ line: LineOffset, at time: MonotonicInstant)
    func release(_ line: LineOffset, at time: MonotonicInstant)
    var outputLevels: LineLevels { get }
}

extension CountingChip: BenchmarkChip {
    public func press(_ line: LineOffset, at time: MonotonicInstant) { send(EdgeEvent(offset: line, edge: .falling, timestamp: time)) }
    public func release(_ line: LineOffset, at time: MonotonicInstant) { send(EdgeEvent(offset: line, edge: .rising, timestamp: time)) }
    public var outputLevels: LineLevels { levels }
}
