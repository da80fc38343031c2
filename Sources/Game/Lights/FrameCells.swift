/// The nine cell colours of a ``Frame``, in reading order, and the brightness of each, packed
/// into one word (two bits of colour a cell, then a dim bit a cell, then a half bit a cell): a
/// frame is copied, compared and stored without allocating, on the game loop's hot path.
///
/// A fixed-size collection of colours: indices `0..<9`, and a colour can be replaced but none
/// added. Writing a colour shows it at full brightness; ``set(_:_:at:)`` chooses. A dark cell
/// is never dim, so equal-looking cells compare equal.
public struct FrameCells: RandomAccessCollection, MutableCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    @usableFromInline var packed: UInt64 = 0

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

    // The accessors below are `@inlinable`: the renderer and the row scan (other modules) read
    // and write cells on every press, and a call each, with its range check, was a tenth of
    // a press. Inlined, each is a check, a shift and a mask; the check stays (`cell(_:)`).

    @inlinable
    public subscript(index: Int) -> LEDColor {
        get { LEDColor(bits: packed >> Self.colorShift(Self.cell(index))) }
        set { set(newValue, .full, at: index) }
    }

    /// Shows `color` at `brightness` in cell `index`.
    @inlinable
    public mutating func set(_ color: LEDColor, _ brightness: Brightness, at index: Int) {
        let cell = Self.cell(index), shift = Self.colorShift(cell), dimBit = Self.dimBit(cell), halfBit = Self.halfBit(cell)
        let lowered: UInt64 = !color.isLit ? 0 : brightness == .dim ? dimBit : brightness == .half ? halfBit : 0
        packed = packed & ~(0b11 << shift) & ~dimBit & ~halfBit | color.bits << shift | lowered
    }

    /// How bright cell `index` shows (a dark cell reads as full).
    @inlinable
    public func brightness(at index: Int) -> Brightness {
        let cell = Self.cell(index)
        return packed & Self.dimBit(cell) != 0 ? .dim : packed & Self.halfBit(cell) != 0 ? .half : .full
    }

    /// Whether any cell is lit below full (dim or half): the scan's frames then differ.
    @inlinable
    public var hasDim: Bool { packed & Self.loweredBits != 0 }

    /// Whether any cell is lit.
    @inlinable
    public var isLit: Bool { packed != 0 }

    /// The cells with every dim one at full brightness.
    @inlinable
    public var allFull: FrameCells {
        var cells = self
        cells.packed &= ~Self.loweredBits
        return cells
    }

    /// The layout of `packed`: cell `i`'s colour in bits `2i` and `2i + 1`, its dim flag in bit
    /// `18 + i`, its half flag in bit `27 + i` (at most one of the two). Each takes a cell
    /// already checked by `cell(_:)`, so its arithmetic cannot trap.
    @inlinable
    static func colorShift(_ cell: UInt32) -> UInt64 { UInt64(2 &* cell) }

    @inlinable
    static func dimBit(_ cell: UInt32) -> UInt64 { 1 &<< UInt64(18 &+ cell) }

    @inlinable
    static func halfBit(_ cell: UInt32) -> UInt64 { 1 &<< UInt64(27 &+ cell) }

    /// Every cell's dim and half flags.
    @inlinable
    static var loweredBits: UInt64 { 0x3FFFF << 18 }

    /// `index` as a cell number once it is one of `0...8`; stops the program otherwise.
    @inlinable
    static func cell(_ index: Int) -> UInt32 {
        guard UInt(bitPattern: index) < 9 else { noCell(index) }
        return UInt32(truncatingIfNeeded: index)
    }

    /// The message for an index outside the frame, out of line: only the check is inlined.
    @usableFromInline
    static func noCell(_ index: Int) -> Never {
        fatalError("FrameCells: no cell \(index); cells are 0...8")
    }
}

extension LEDColor {
    /// Bit 0 the red die, bit 1 the green one.
    @inlinable
    var bits: UInt64 {
        switch self {
        case .off: 0
        case .red: 1
        case .green: 2
        case .amber: 3
        }
    }

    /// The colour of the low two bits of `bits`.
    @inlinable
    init(bits: UInt64) {
        switch bits & 0b11 {
        case 1: self = .red
        case 2: self = .green
        case 3: self = .amber
        default: self = .off
        }
    }
}
