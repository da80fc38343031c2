import Basics

/// A change of level seen on an input line, stamped by the chip on the monotonic clock
/// (the kernel uses `CLOCK_MONOTONIC` since Linux 5.7).
public struct EdgeEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Edge: Sendable, Hashable {
        /// Low to high: an active-low button being released.
        case rising
        /// High to low: an active-low button being pressed.
        case falling

        /// The level the line has after this edge.
        public var level: LineLevel { self == .rising ? .high : .low }
    }

    public var offset: LineOffset
    public var edge: Edge
    public var timestamp: MonotonicInstant

    public init(offset: LineOffset, edge: Edge, timestamp: MonotonicInstant) {
        self.offset = offset
        self.edge = edge
        self.timestamp = timestamp
    }

    public var description: String { "\(offset) \(edge) at \(timestamp)" }
}
