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

    private init(_ kind: Kind, _ indices: [Int]) {
        self.kind = kind
        self.positions = indices.map { Position.all[$0] }
    }

    /// All eight lines. Each is spelled out rather than computed, so that a reader can check
    /// them at a glance (the seed app's diagonals were a copy of its columns).
    public static let all: [WinningLine] = [
        WinningLine(.row(0), [0, 1, 2]),
        WinningLine(.row(1), [3, 4, 5]),
        WinningLine(.row(2), [6, 7, 8]),
        WinningLine(.column(0), [0, 3, 6]),
        WinningLine(.column(1), [1, 4, 7]),
        WinningLine(.column(2), [2, 5, 8]),
        WinningLine(.diagonal, [0, 4, 8]),
        WinningLine(.antiDiagonal, [2, 4, 6]),
    ]

    public func contains(_ position: Position) -> Bool { positions.contains(position) }

    public var description: String {
        switch kind {
        case .row(let n): "row \(n)"
        case .column(let n): "column \(n)"
        case .diagonal: "diagonal"
        case .antiDiagonal: "anti-diagonal"
        }
    }
}
