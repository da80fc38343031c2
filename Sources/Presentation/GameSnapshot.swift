import TicTacToe

/// Everything worth keeping across a restart: the game in progress, who starts the next one,
/// and the score. Plain values, so the service can save and restore them.
public struct GameSnapshot: Sendable, Hashable {
    public var board: Board
    public var nextStarter: Player
    public var score: Score

    public init(board: Board = Board(), nextStarter: Player = .o, score: Score = Score()) {
        self.board = board
        self.nextStarter = nextStarter
        self.score = score
    }
}
