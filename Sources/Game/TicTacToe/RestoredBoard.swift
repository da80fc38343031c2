/// Why saved marks cannot be a board.
public enum BoardRestoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case wrongCellCount(Int)
    /// Turns alternate from the starter, so the starter has as many marks as the other player,
    /// or one more.
    case impossibleCounts(starter: Player, starterMarks: Int, otherMarks: Int)
    /// Both players have a line, or play went on after a win.
    case playedPastTheEnd

    public var description: String {
        switch self {
        case .wrongCellCount(let count): "a board has 9 cells, not \(count)"
        case .impossibleCounts(let starter, let mine, let theirs):
            "\(starter) started but has \(mine) marks against \(theirs)"
        case .playedPastTheEnd: "moves were made after the game was won"
        }
    }
}

extension Board {
    /// The nine marks in reading order as saved files and the board's API write them: "X", "O"
    /// or "" (the inverse of ``init(starter:marks:)``, with ``Player/init(rawValue:)``).
    public var markNames: [String] { Position.all.map { self[$0]?.rawValue ?? "" } }

    /// The board with these marks (reading order) on which `starter` moved first, if play
    /// could have reached it: for restoring a saved game.
    public init(starter: Player, marks: [Player?]) throws(BoardRestoreError) {
        guard marks.count == 9 else { throw .wrongCellCount(marks.count) }
        let mine = marks.filter { $0 == starter }.count
        let theirs = marks.filter { $0 == starter.opponent }.count
        guard mine == theirs || mine == theirs + 1 else {
            throw .impossibleCounts(starter: starter, starterMarks: mine, otherMarks: theirs)
        }
        // Replay the marks alternately. Any order of one player's marks reaches the same cells,
        // but a win must come with the very last mark, so try each of the last mover's marks
        // in the last place until one replays without playing past a win.
        let lastMover = mine > theirs ? starter : starter.opponent
        let starterCells = Position.all.filter { marks[$0.index] == starter }
        let otherCells = Position.all.filter { marks[$0.index] == starter.opponent }
        let lastCells = lastMover == starter ? starterCells : otherCells
        for final in lastCells.isEmpty ? [nil] : lastCells.map(Optional.some) {
            var mover = starterCells, other = otherCells
            if let final {
                if lastMover == starter { mover.removeAll { $0 == final }; mover.append(final) }
                else { other.removeAll { $0 == final }; other.append(final) }
            }
            var order: [Position] = []
            for index in 0..<mover.count {
                order.append(mover[index])
                if index < other.count { order.append(other[index]) }
            }
            if let board = try? Board(starter: starter).playing(order) {
                self = board
                return
            }
        }
        throw .playedPastTheEnd
    }
}
