/// The nine cell colours of a ``Frame``, in reading order, packed two bits a cell into one
/// word: a frame is copied, compared and stored without allocating, on the game loop's hot path.
///
/// A fixed-size collection: indices `0..<9`, and a colour can be replaced but none added.
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
        set {
            require(index)
            let shift = UInt32(2 * index)
            packed = packed & ~(0b11 << shift) | newValue.bits << shift
        }
    }

    /// Whether any cell is lit.
    public var isLit: Bool { packed != 0 }

    private func require(_ index: Int) {
        if !(0..<9).contains(index) { fatalError("FrameCells: no cell \(index); cells are 0...8") }
    }
}

extension LEDColor {
    /// Bit 0 the red die, bit 1 the green one.
    fileprivate var bits: UInt32 { (isRedLit ? 1 : 0) | (isGreenLit ? 2 : 0) }

    fileprivate init(bits: UInt32) { self.init(red: bits & 1 != 0, green: bits & 2 != 0) }
}
