import Matchboxes

/// What came of asking for a fresh matchbox learner (the board's API's `reset-learner`).
public enum LearnerReset: Sendable, Hashable {
    /// The learner is a fresh one: no box opened, no game in its record.
    case done
    /// A game against the learner is under way: it was not reset.
    case playing
    /// The learner has played another count of games than the one the reset was asked for: it
    /// was not reset.
    case changed(games: Int)
}

extension SessionState {
    /// Whether a game against the learner is under way: a mark on the board, or the learner to
    /// make the first move. Its reset waits until that game is over or given up, for the game
    /// would otherwise teach a fresh learner moves its old boxes chose (and the thinking
    /// learner draws from the boxes it had when it began).
    public var learnerInGame: Bool {
        opponent == .learner && !board.isOver && (board.moveCount > 0 || board.turn == .o)
    }

    /// Replaces the learner with a fresh one under the same rules, unless a game against it is
    /// under way (``learnerInGame``) or, given `expected`, it has played another count of games:
    /// a confirmation that arrives late acts on the learner it was asked about, or on nothing.
    /// The game, the scores and the lights stay as they are; the save follows the state.
    public mutating func resetLearner(ifGames expected: Int?) -> LearnerReset {
        if let expected, expected != learner.record.games { return .changed(games: learner.record.games) }
        if learnerInGame { return .playing }
        learner = MatchboxLearner(rules: learner.rules)
        return .done
    }
}
