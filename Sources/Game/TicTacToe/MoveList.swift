/// The cells a game's moves took, in order: at most nine, held inline (four bits a move) so a
/// value carrying it copies a few words and retains nothing.
public struct MoveList: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    private var packed: UInt64 = 0
    public private(set) var count = 0

    public init() {}

    /// The moves `positions`, if there are at most nine of them.
    public init?(_ positions: [Position]) {
        guard positions.count <= 9 else { return nil }
        for position in positions { append(position) }
    }

    /// Adds a move; a tenth is never made (a game ends by its ninth) and is dropped.
    public mutating func append(_ position: Position) {
        guard count < 9 else { return }
        packed |= UInt64(position.index) << (4 * count)
        count += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> Position {
        Position(index: Int(packed >> (4 * index) & 0xF)) ?? Position.all[0]
    }

    public var description: String { map(\.description).joined(separator: " ") }
}
