import TicTacToe

/// One of the eight ways of turning or flipping the board onto itself: the four turns and the
/// four mirrors of the square.
///
/// The learner files a position and its seven images in one matchbox, as Michie did: what it
/// learns on one it knows on all. A symmetry moves cells, never marks, so it maps a legal
/// position to a legal one with the same player to move and the same outcome.
public struct BoardSymmetry: Sendable, Hashable, CustomStringConvertible {
    /// `image[i]`: the reading-order index the cell at index `i` goes to.
    let image: [Int]
    public let description: String

    /// All eight: the identity first, then the quarter turns clockwise, then the mirrors.
    public static let all: [BoardSymmetry] = {
        let turn = BoardSymmetry(image: (0..<9).map { ($0 % 3) * 3 + 2 - $0 / 3 }, description: "a quarter turn")
        let mirror = BoardSymmetry(image: (0..<9).map { ($0 / 3) * 3 + 2 - $0 % 3 }, description: "left for right")
        var turns = [BoardSymmetry(image: Array(0..<9), description: "as it is")]
        for _ in 1...3 { turns.append(turns[turns.count - 1].then(turn)) }
        let names = ["as it is", "a quarter turn", "a half turn", "three quarter turns"]
        let turned = turns.indices.map { BoardSymmetry(image: turns[$0].image, description: names[$0]) }
        let mirrored = turns.indices.map { BoardSymmetry(image: mirror.then(turns[$0]).image, description: "left for right, then \(names[$0])") }
        return turned + mirrored
    }()

    /// This symmetry, then `next`.
    func then(_ next: BoardSymmetry) -> BoardSymmetry {
        BoardSymmetry(image: image.map { next.image[$0] }, description: "\(description), then \(next.description)")
    }

    /// The symmetry that undoes this one.
    public var inverse: BoardSymmetry {
        var back = Array(repeating: 0, count: 9)
        for (cell, target) in image.enumerated() { back[target] = cell }
        return BoardSymmetry(image: back, description: "undoing \(description)")
    }

    /// Where `position` goes.
    public func apply(to position: Position) -> Position {
        Position(index: image[position.index]) ?? position
    }

    /// A nine-bit mask of cells (bit `i`: the cell at index `i`), moved.
    func apply(to mask: UInt16) -> UInt16 {
        var moved: UInt16 = 0
        for cell in 0..<9 where mask & 1 << cell != 0 { moved |= 1 << image[cell] }
        return moved
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.image == rhs.image }
    public func hash(into hasher: inout Hasher) { hasher.combine(image) }
}
