import Basics

/// The levels of up to 64 lines of one chip, as a bit set: bit *n* is line offset *n*, set when
/// high. Cheap to copy, so the simulated chip can keep one per output write.
public struct LineLevels: Sendable, Hashable, CustomStringConvertible {
    public var bits: UInt64

    public init(bits: UInt64 = 0) { self.bits = bits }

    /// The most lines a `LineLevels` can describe.
    public static let capacity = 64

    public subscript(offset: LineOffset) -> LineLevel {
        get { LineLevel(bits & Self.mask(offset) != 0) }
        set {
            if newValue.isHigh { bits |= Self.mask(offset) } else { bits &= ~Self.mask(offset) }
        }
    }

    private static func mask(_ offset: LineOffset) -> UInt64 {
        require(offset.rawValue < 64, "LineLevels holds lines 0...63")
        return 1 << UInt64(offset.rawValue)
    }

    public var description: String {
        let high = (0..<64).filter { bits & (1 << UInt64($0)) != 0 }.map { "\($0)" }
        return "high: [\(high.joined(separator: ", "))]"
    }
}
