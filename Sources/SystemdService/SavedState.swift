import Presentation
import TicTacToe

/// The state file's contents: a ``GameSnapshot`` as plain JSON, with a format version.
struct SavedState: Codable, Equatable {
    static let currentVersion = 1

    var version: Int
    /// Nine cells in reading order: "X", "O" or "".
    var cells: [String]
    var starter: String
    var nextStarter: String
    var xWins: Int
    var oWins: Int
    var draws: Int

    init(_ snapshot: GameSnapshot) {
        version = Self.currentVersion
        cells = Position.all.map { snapshot.board[$0]?.rawValue ?? "" }
        starter = snapshot.board.starter.rawValue
        nextStarter = snapshot.nextStarter.rawValue
        xWins = snapshot.score.xWins
        oWins = snapshot.score.oWins
        draws = snapshot.score.draws
    }

    /// The snapshot, or why these contents cannot be one.
    func snapshot() throws(StateFileProblem) -> GameSnapshot {
        guard version == Self.currentVersion else { throw .invalid("format version \(version), expected \(Self.currentVersion)") }
        guard let starter = Player(rawValue: starter), let next = Player(rawValue: nextStarter) else {
            throw .invalid("players must be \"X\" or \"O\"")
        }
        var marks: [Player?] = []
        for cell in cells {
            if cell.isEmpty { marks.append(nil) } else if let player = Player(rawValue: cell) { marks.append(player) } else {
                throw .invalid("a cell holds \"\(cell)\"")
            }
        }
        guard xWins >= 0, oWins >= 0, draws >= 0 else { throw .invalid("a negative score") }
        do {
            let board = try Board(starter: starter, marks: marks)
            return GameSnapshot(board: board, nextStarter: next, score: Score(xWins: xWins, oWins: oWins, draws: draws))
        } catch {
            throw .invalid(error.description)
        }
    }
}

/// Why a state file was not used.
enum StateFileProblem: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case invalid(String)

    var description: String {
        switch self {
        case .unreadable(let why): "cannot be read: \(why)"
        case .invalid(let why): "is not a valid saved game: \(why)"
        }
    }
}
