/// One of the eight lines of three that win: three rows, three columns and two diagonals.
public struct WinningLine: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case row(Int)
        case column(Int)
        /// Top left to bottom right.
        case diagonal
        /// Top right to bottom left.
        case antiDiagonal
    }

    public let kind: Kind
    /// The three cells of the line, in reading order.
    public let positions: [Position]
    /// The line's place in ``all``.
    public let number: Int
    /// The line's cells as bits (bit `i` for reading-order index `i`).
    let mask: UInt16

    private init(_ number: Int, _ kind: Kind, _ indices: [Int]) {
        self.number = number
        self.kind = kind
        self.positions = indices.map { Position.all[$0] }
        self.mask = indices.reduce(0) { $0 | 1 << UInt16($1) }
    }

    /// All eight lines. Each is spelled out rather than computed, so that a reader can check
    /// them at a glance (the seed app's diagonals were a copy of its columns).
    public static let all: [WinningLine] = [
        WinningLine(0, .row(0), [0, 1, 2]),
        WinningLine(1, .row(1), [3, 4, 5]),
        WinningLine(2, .row(2), [6, 7, 8]),
        WinningLine(3, .column(0), [0, 3, 6]),
        WinningLine(4, .column(1), [1, 4, 7]),
        WinningLine(5, .column(2), [2, 5, 8]),
        WinningLine(6, .diagonal, [0, 4, 8]),
        WinningLine(7, .antiDiagonal, [2, 4, 6]),
    ]

    public func contains(_ position: Position) -> Bool { mask & 1 << UInt16(position.index) != 0 }

    /// The line as a player names it: "top row", "left column", "diagonal from top left".
    public var description: String {
        let places = ["top", "middle", "bottom"], sides = ["left", "middle", "right"]
        return switch kind {
        case .row(let n): "\(places[n]) row"
        case .column(let n): "\(sides[n]) column"
        case .diagonal: "diagonal from top left"
        case .antiDiagonal: "diagonal from top right"
        }
    }
}

/// The lines a winning move completed: one, or two when the last mark closed two at once (X at
/// the corner of a full top row and a full left column). A set of the eight lines in one byte,
/// so that boards and outcomes stay plain values without allocation.
public struct WinningLines: Sendable, Hashable, Sequence, CustomStringConvertible {
    private var bits: UInt8

    public init() { bits = 0 }

    public init<Lines: Sequence>(_ lines: Lines) where Lines.Element == WinningLine {
        bits = 0
        for line in lines { insert(line) }
    }

    /// Every line whose three cells are all in `marks` (bit `i`: the cell with index `i`).
    init(completedBy marks: UInt16) {
        bits = 0
        for line in WinningLine.all where marks & line.mask == line.mask { insert(line) }
    }

    public mutating func insert(_ line: WinningLine) { bits |= 1 << UInt8(line.number) }

    public func contains(_ line: WinningLine) -> Bool { bits & 1 << UInt8(line.number) != 0 }

    /// Whether any of the lines runs through `position`.
    public func contains(_ position: Position) -> Bool {
        var rest = bits
        while rest != 0 {
            if WinningLine.all[rest.trailingZeroBitCount].contains(position) { return true }
            rest &= rest - 1
        }
        return false
    }

    public var isEmpty: Bool { bits == 0 }
    public var count: Int { bits.nonzeroBitCount }

    public func makeIterator() -> Iterator { Iterator(rest: bits) }

    /// The lines in the order of ``WinningLine/all``.
    public struct Iterator: IteratorProtocol {
        fileprivate var rest: UInt8

        public mutating func next() -> WinningLine? {
            guard rest != 0 else { return nil }
            let number = rest.trailingZeroBitCount
            rest &= rest - 1
            return WinningLine.all[number]
        }
    }

    /// "the top row", or "the top row and the left column".
    public var description: String {
        map { "the \($0)" }.joined(separator: " and ")
    }
}
