/// Why a move was refused. The board is unchanged in every case.
public enum MoveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cell already holds a mark.
    case cellOccupied(Position, by: Player)
    /// The game has been won or drawn; no further moves are accepted.
    case gameOver

    public var description: String {
        switch self {
        case .cellOccupied(let position, let player): "\(position.name) is already taken by \(player)"
        case .gameOver: "the game is over; start a new game"
        }
    }
}
