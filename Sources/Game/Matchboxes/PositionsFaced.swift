import TicTacToe

/// Every position the learner can be asked to choose a move in, up to the board's symmetries:
/// the boxes a full set of matchboxes holds.
///
/// A position is faced when play reaches it with the learner to move, the game not over and
/// at least two cells free (with one there is nothing to choose). Worked out by playing every
/// game once; pure.
public enum PositionsFaced {
    /// The boxes for a learner playing `learner` in games that `starter` starts.
    public static func keys(learner: Player, starter: Player) -> Set<BoxKey> {
        var keys: Set<BoxKey> = []
        var seen: Set<Board> = []
        visit(Board(starter: starter), learnerMoves: learner == starter, keys: &keys, seen: &seen)
        return keys
    }

    /// The boxes a learner playing O can need, worked out once: what a saved box is checked
    /// against.
    public static let playingO = keys(learner: .o)

    /// The boxes for a learner playing `learner` in games either player starts: all it can need.
    public static func keys(learner: Player) -> Set<BoxKey> {
        keys(learner: learner, starter: .x).union(keys(learner: learner, starter: .o))
    }

    private static func visit(_ board: Board, learnerMoves: Bool, keys: inout Set<BoxKey>, seen: inout Set<Board>) {
        guard !board.isOver, seen.insert(board).inserted else { return }
        let free = Position.all.filter { board[$0] == nil }
        if learnerMoves, free.count > 1 { keys.insert(BoxKey.filing(board).key) }
        for position in free {
            if let next = try? board.playing(position) { visit(next, learnerMoves: !learnerMoves, keys: &keys, seen: &seen) }
        }
    }
}
