import TicTacToe

/// One whole game between the learner (playing O) and the computer (X), played out without a
/// board or clock, the learner learning from its end: for the learning tests and benchmark, and
/// for training a learner before it meets people.
public enum TrainingGame {
    /// Plays a game that `starter` starts and teaches `learner` its result, which it returns.
    public static func play<Source>(
        _ learner: inout MatchboxLearner, against computer: inout ComputerPlayer<Source>, starter: Player,
        using random: inout some RandomNumberGenerator
    ) -> LearnerResult {
        var board = Board(starter: starter), moves: [Position] = []
        while let mover = board.turn {
            let move = mover == .o ? learner.move(on: board, using: &random) : computer.move(on: board)
            guard let move, let next = try? board.playing(move) else { break }
            board = next
            moves.append(move)
        }
        let game = FinishedGame(starter: starter, learner: .o, moves: moves)
        learner.learn(from: game)
        // Both players always have a move until the end, so the loop ends with the game.
        let result: LearnerResult = board.winner == .o ? .won : board.winner == .x ? .lost : .drew
        return result
    }
}
