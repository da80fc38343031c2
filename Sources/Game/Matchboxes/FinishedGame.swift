import TicTacToe

/// A game as the learner learns from it: who started, which side the learner played, and the
/// moves in order from the empty board.
public struct FinishedGame: Sendable, Hashable {
    public var starter: Player
    public var learner: Player
    public var moves: [Position]

    public init(starter: Player, learner: Player, moves: [Position]) {
        self.starter = starter
        self.learner = learner
        self.moves = moves
    }

    /// How the game ended for the learner; `nil` when the moves are not a finished legal game.
    public var result: LearnerResult? {
        guard let board = try? Board(starter: starter).playing(moves), board.isOver else { return nil }
        guard let winner = board.winner else { return .drew }
        return winner == learner ? .won : .lost
    }
}
