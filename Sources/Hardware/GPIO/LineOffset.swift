/// A line of a GPIO chip, by its offset on that chip. On the Raspberry Pi's header chip the
/// offset is the BCM number ("GPIO17" is offset 17).
public struct LineOffset: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public let rawValue: UInt32

    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt32) { self.rawValue = value }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "GPIO\(rawValue)" }
}

/// The electrical level of a line, as the chip sees it (before any active-low inversion).
public enum LineLevel: Sendable, Hashable, CustomStringConvertible {
    case low, high

    public init(_ isHigh: Bool) { self = isHigh ? .high : .low }

    public var isHigh: Bool { self == .high }

    public var description: String { self == .high ? "high" : "low" }
}

/// One line and the level to drive it to.
public struct LineSetting: Sendable, Hashable {
    public var offset: LineOffset
    public var level: LineLevel

    public init(_ offset: LineOffset, _ level: LineLevel) {
        self.offset = offset
        self.level = level
    }
}
