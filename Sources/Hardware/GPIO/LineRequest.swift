import Reactive

/// How an input line is pulled when nothing drives it.
public enum Bias: Sendable, Hashable {
    /// Leave the bias as the chip has it.
    case asIs
    /// Pulled high: a button to ground reads low while pressed (active-low).
    case pullUp
    /// Pulled low.
    case pullDown
    /// No pull: the line floats when undriven.
    case disabled
}

/// What to ask of a chip for a group of input lines.
public struct InputConfiguration: Sendable, Hashable {
    public var offsets: [LineOffset]
    public var bias: Bias
    /// A debounce period for chips that debounce in the kernel (libgpiod v2); chips that cannot
    /// ignore it. The device layer debounces on timestamps anyway.
    public var kernelDebounce: Duration?
    /// The name shown to other programs as the lines' consumer.
    public var consumer: String

    public init(offsets: [LineOffset], bias: Bias, kernelDebounce: Duration? = nil, consumer: String) {
        self.offsets = offsets
        self.bias = bias
        self.kernelDebounce = kernelDebounce
        self.consumer = consumer
    }
}

/// What to ask of a chip for a group of output lines.
public struct OutputConfiguration: Sendable, Hashable {
    public var offsets: [LineOffset]
    /// The level every line starts at.
    public var initialLevel: LineLevel
    public var consumer: String

    public init(offsets: [LineOffset], initialLevel: LineLevel, consumer: String) {
        self.offsets = offsets
        self.initialLevel = initialLevel
        self.consumer = consumer
    }
}

/// Input lines held by this process, watched for edges on both directions.
///
/// ## Contract
/// - ``events`` delivers every edge on the requested lines in timestamp order, on a thread of
///   the chip's choosing (the caller's for a simulated chip, a reader thread for a real one).
/// - After ``release()`` no event is delivered, `events` completes and the lines are free for
///   other requests. Releasing twice is harmless.
public protocol InputLines: AnyObject, Sendable {
    var offsets: [LineOffset] { get }
    var events: Signal<EdgeEvent> { get }
    /// The present level of one requested line.
    func level(of offset: LineOffset) throws(GPIOError) -> LineLevel
    /// Whether events are still being read: false once released, or when a real chip's reader
    /// thread has stopped on an error. A service watchdog checks it.
    var isListening: Bool { get }
    func release()
}

/// Output lines held by this process.
///
/// ## Contract
/// - ``set(_:)`` changes all given lines in one request to the chip. Lines not mentioned keep
///   their level. Setting a line that was not requested is an error and changes nothing.
/// - After ``release()`` the lines are free again and `set` throws. Releasing twice is harmless.
public protocol OutputLines: AnyObject, Sendable {
    var offsets: [LineOffset] { get }
    func set(_ settings: [LineSetting]) throws(GPIOError)
    func release()
}

/// A GPIO chip: the one protocol behind which the simulated chip and libgpiod sit.
public protocol GPIOChip: AnyObject, Sendable {
    /// The chip's name, such as `gpiochip0`.
    var name: String { get }
    /// The chip's label, such as `pinctrl-bcm2711`.
    var label: String { get }
    var lineCount: Int { get }
    func requestInputs(_ configuration: InputConfiguration) throws(GPIOError) -> any InputLines
    func requestOutputs(_ configuration: OutputConfiguration) throws(GPIOError) -> any OutputLines
}
