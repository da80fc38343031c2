import Matchboxes

/// What came of asking for a fresh matchbox learner (the board's API's `reset-learner`).
public enum LearnerReset: Sendable, Hashable {
    /// The learner is a fresh one: no box opened, no game in its record.
    case done
    /// A game against the learner is under way: it was not reset.
    case playing
    /// The learner is not the one the reset was asked about: it has played another count of
    /// games, or it was reset meanwhile (another count of resets). It was not reset.
    case changed(games: Int, resets: Int)
}

extension SessionState {
    /// Whether a game against the learner is under way: a mark on the board, or the learner to
    /// make the first move. Its reset waits until that game is over or given up, for the game
    /// would otherwise teach a fresh learner moves its old boxes chose (and the thinking
    /// learner draws from the boxes it had when it began).
    public var learnerInGame: Bool {
        opponent == .learner && !board.isOver && (board.moveCount > 0 || board.turn == .o)
    }

    /// Replaces the learner with a fresh one under the same rules (``MatchboxLearner/reset()``),
    /// unless a game against it is under way (``learnerInGame``) or, given `expected` games or
    /// `resets`, it has played another count of games or been reset another number of times: a
    /// confirmation that arrives late acts on the learner it was asked about, or on nothing (the
    /// count of games alone would take a learner reset meanwhile, and played as far, for it).
    /// The game, the scores and the lights stay as they are; the save follows the state.
    public mutating func resetLearner(ifGames expected: Int?, resets expectedResets: Int? = nil) -> LearnerReset {
        if let expected, expected != learner.record.games { return .changed(games: learner.record.games, resets: learner.resets) }
        if let expectedResets, expectedResets != learner.resets { return .changed(games: learner.record.games, resets: learner.resets) }
        if learnerInGame { return .playing }
        learner = learner.reset()
        return .done
    }
}
