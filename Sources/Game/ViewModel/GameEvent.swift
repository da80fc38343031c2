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
    /// A person pressed a cell while the other side was to move (the computer, the learner or
    /// another board).
    case othersTurn(Position)
    /// A person pressed a cell while the other board was waited for
    /// (``SessionState/awaitsOtherBoard``).
    case pressWhileWaiting(Position)
    /// New game was asked for while the other board is not heard (``SessionState/awaitsOtherBoard``).
    case waitingForBoard
    /// The other board is heard no more (``SessionState/awaitsOtherBoard``): named.
    case otherBoardAway(String)
    /// The other board is heard again, playing this game.
    case otherBoardHere(String)
    /// Another board, named, invites this one (``SessionState/see(_:)``): choosing it joins.
    case invited(String)
    /// The other board, named, was not heard for `after` (``GameTimings/otherBoardWait``): the
    /// board gave the game up and plays two players, a new game started.
    case gaveUp(board: String, after: Duration, starter: Player)
    /// The opponent gesture chose who plays O from now on; a new game started.
    case opponentChosen(Opponent, starter: Player)
    case finished(Outcome)
    case fellAsleep
    case wokeUp
}
