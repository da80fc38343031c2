import Basics
import GPIO

/// One `set` call on a simulated chip's output lines: when it happened and the levels of every
/// output line of the chip right after it.
public struct OutputWrite: Sendable, Hashable {
    public var time: MonotonicInstant
    public var levels: LineLevels

    public init(time: MonotonicInstant, levels: LineLevels) {
        self.time = time
        self.levels = levels
    }
}

