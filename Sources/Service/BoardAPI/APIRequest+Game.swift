import BoardProtocol
import TicTacToe

extension APIRequest {
    /// A press of `position`'s cell.
    public static func press(_ position: Position) -> APIRequest { .press(cell: position.keypadKey) }

    /// The choice of `opponent`.
    public static func opponent(_ opponent: Opponent) -> APIRequest { .opponent(name: opponent.name) }
}
