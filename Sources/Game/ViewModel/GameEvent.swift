import TicTacToe

/// Something that happened in the game, for logs and the terminal's message line. The lights
/// never depend on these: they are bound to the view model's properties.
public enum GameEvent: Sendable, Hashable {
    case started(starter: Player)
    case moved(Player, Position)
    case refused(Position, MoveError)
    /// A cell pressed after the game ended.
    case ignored(Position)
    /// A short press of new game mid-game, which takes a hold.
    case newGameNeedsHold
    /// A person pressed a cell while the computer was to move.
    case computersTurn(Position)
    /// The opponent gesture chose who plays O from now on; a new game started.
    case opponentChosen(Opponent, starter: Player)
    case finished(Outcome)
    case fellAsleep
    case wokeUp
}
