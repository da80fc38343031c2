import Presentation
import TicTacToe

/// The state file's contents: a ``GameSnapshot`` as plain JSON, with a format version.
///
/// Version 2 keeps who plays O and a score per pairing; a version 1 file (two players, one
/// score) is still read, as a game between two players.
struct SavedState: Codable, Equatable {
    static let currentVersion = 2

    struct SavedScore: Codable, Equatable {
        var xWins: Int
        var oWins: Int
        var draws: Int
    }

    var version: Int
    /// Nine cells in reading order: "X", "O" or "".
    var cells: [String]
    var starter: String
    var nextStarter: String
    /// Who plays O, by ``Opponent/name`` (version 2).
    var opponent: String?
    /// Each pairing's score, by ``Opponent/name`` (version 2).
    var scores: [String: SavedScore]?
    /// The one score of version 1.
    var xWins: Int?
    var oWins: Int?
    var draws: Int?

    init(_ snapshot: GameSnapshot) {
        version = Self.currentVersion
        cells = Position.all.map { snapshot.board[$0]?.rawValue ?? "" }
        starter = snapshot.board.starter.rawValue
        nextStarter = snapshot.nextStarter.rawValue
        opponent = snapshot.opponent.name
        scores = Dictionary(uniqueKeysWithValues: snapshot.scores.map { opponent, score in
            (opponent.name, SavedScore(xWins: score.xWins, oWins: score.oWins, draws: score.draws))
        })
    }

    /// The snapshot, or why these contents cannot be one.
    func snapshot() throws(StateFileProblem) -> GameSnapshot {
        guard let starter = Player(rawValue: starter), let next = Player(rawValue: nextStarter) else {
            throw .invalid("players must be \"X\" or \"O\"")
        }
        var marks: [Player?] = []
        for cell in cells {
            if cell.isEmpty { marks.append(nil) } else if let player = Player(rawValue: cell) { marks.append(player) } else {
                throw .invalid("a cell holds \"\(cell)\"")
            }
        }
        let (opponent, scores) = try pairings()
        guard scores.values.allSatisfy({ $0.xWins >= 0 && $0.oWins >= 0 && $0.draws >= 0 }) else { throw .invalid("a negative score") }
        do {
            let board = try Board(starter: starter, marks: marks)
            return GameSnapshot(board: board, nextStarter: next, opponent: opponent, scores: scores)
        } catch {
            throw .invalid(error.description)
        }
    }

    private func pairings() throws(StateFileProblem) -> (Opponent, [Opponent: Score]) {
        switch version {
        case 1:
            guard let xWins, let oWins, let draws else { throw .invalid("version 1 without its score") }
            return (.person, [.person: Score(xWins: xWins, oWins: oWins, draws: draws)])
        case Self.currentVersion:
            guard let name = opponent, let opponent = Opponent(name: name) else {
                throw .invalid("the opponent must be one of \(Opponent.allCases.map(\.name).joined(separator: ", "))")
            }
            var result: [Opponent: Score] = [:]
            for (name, score) in scores ?? [:] {
                guard let pairing = Opponent(name: name) else { throw .invalid("a score for \"\(name)\", which is no opponent") }
                result[pairing] = Score(xWins: score.xWins, oWins: score.oWins, draws: score.draws)
            }
            return (opponent, result)
        default:
            throw .invalid("format version \(version), expected \(Self.currentVersion) (or 1)")
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
