/// The nine cell colours of a ``Frame``, in reading order, and the brightness of each, packed
/// into one word (two bits of colour a cell, then a dim bit a cell): a frame is copied, compared
/// and stored without allocating, on the game loop's hot path.
///
/// A fixed-size collection of colours: indices `0..<9`, and a colour can be replaced but none
/// added. Writing a colour shows it at full brightness; ``set(_:_:at:)`` chooses. A dark cell
/// is never dim, so equal-looking cells compare equal.
public struct FrameCells: RandomAccessCollection, MutableCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    private var packed: UInt32 = 0

    public let startIndex = 0
    public let endIndex = 9

    /// Every cell off.
    public init() {}

    /// The cells of `colors`, which must hold exactly nine.
    public init<Colors: Sequence>(_ colors: Colors) where Colors.Element == LEDColor {
        var index = 0
        for color in colors {
            guard index < 9 else { fatalError("FrameCells: a frame has exactly nine cells, not more") }
            self[index] = color
            index += 1
        }
        guard index == 9 else { fatalError("FrameCells: a frame has exactly nine cells, not \(index)") }
    }

    public init(arrayLiteral colors: LEDColor...) { self.init(colors) }

    public subscript(index: Int) -> LEDColor {
        get {
            require(index)
            return LEDColor(bits: packed >> UInt32(2 * index))
        }
        set { set(newValue, .full, at: index) }
    }

    /// Shows `color` at `brightness` in cell `index`.
    public mutating func set(_ color: LEDColor, _ brightness: Brightness, at index: Int) {
        require(index)
        let shift = UInt32(2 * index)
        let dim: UInt32 = brightness == .dim && color.isLit ? 1 : 0
        packed = packed & ~(0b11 << shift) & ~(1 << Self.dimBit(index)) | color.bits << shift | dim << Self.dimBit(index)
    }

    /// How bright cell `index` shows (a dark cell reads as full).
    public func brightness(at index: Int) -> Brightness {
        require(index)
        return packed & (1 << Self.dimBit(index)) != 0 ? .dim : .full
    }

    /// Whether any cell is dim.
    public var hasDim: Bool { packed >> Self.dimBit(0) != 0 }

    /// Whether any cell is lit.
    public var isLit: Bool { packed != 0 }

    /// The cells with every dim one at full brightness.
    public var allFull: FrameCells {
        var cells = self
        cells.packed &= (1 << Self.dimBit(0)) - 1
        return cells
    }

    private static func dimBit(_ index: Int) -> UInt32 { UInt32(18 + index) }

    private func require(_ index: Int) {
        if !(0..<9).contains(index) { fatalError("FrameCells: no cell \(index); cells are 0...8") }
    }
}

extension LEDColor {
    /// Bit 0 the red die, bit 1 the green one.
    fileprivate var bits: UInt32 { (isRedLit ? 1 : 0) | (isGreenLit ? 2 : 0) }

    fileprivate init(bits: UInt32) { self.init(red: bits & 1 != 0, green: bits & 2 != 0) }
}
