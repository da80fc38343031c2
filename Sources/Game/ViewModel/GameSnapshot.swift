import Matchboxes
import TicTacToe

/// Everything worth keeping across a restart: the game in progress, who starts the next one,
/// who plays O, and the score of each pairing. Plain values, so the service can save and
/// restore them.
public struct GameSnapshot: Sendable, Hashable {
    public var board: Board
    public var nextStarter: Player
    public var opponent: Opponent
    /// The score of each pairing: two players, and against each level of the computer.
    public var scores: [Opponent: Score]
    /// The moves of the game on the board, in order, when known (a file of an earlier version
    /// kept only the marks): the learner learns from a game only by its moves.
    public var moves: MoveList?
    /// The matchbox learner's memory: its boxes, whoever plays now.
    public var learner: MatchboxLearner
    /// Against another board, the pairing's game on the board (``RemotePlay/game``); else 0.
    public var remoteGame: Int

    /// - Parameter score: the score of the pairing `opponent` (the others start at nothing).
    public init(board: Board = Board(), nextStarter: Player = .o, opponent: Opponent = .person, score: Score = Score()) {
        self.init(board: board, nextStarter: nextStarter, opponent: opponent, scores: score == Score() ? [:] : [opponent: score])
    }

    public init(
        board: Board, nextStarter: Player, opponent: Opponent, scores: [Opponent: Score], moves: MoveList? = nil,
        learner: MatchboxLearner = MatchboxLearner(), remoteGame: Int = 0
    ) {
        self.board = board
        self.nextStarter = nextStarter
        self.opponent = opponent
        self.scores = scores.filter { $0.value != Score() }
        self.moves = moves ?? (board.moveCount == 0 ? MoveList() : nil)
        self.learner = learner
        self.remoteGame = opponent.remote == nil ? 0 : max(0, remoteGame)
    }

    /// The score of the pairing at the board.
    public var score: Score { scores[opponent] ?? Score() }
}
