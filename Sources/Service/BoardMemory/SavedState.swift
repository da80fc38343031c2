import Basics
import BoardAPI
import Matchboxes
import ViewModel
import TicTacToe

/// A ``GameSnapshot`` as it is kept: the database's game, scores and learner rows
/// (``BoardMemory``), and the contents of release 0.4's state file (plain JSON, imported once).
/// Whichever it comes from, ``snapshot()`` checks it whole.
///
/// The state file's version 3 adds the game's moves in order and the matchbox learner's boxes; version 2 kept
/// who plays O and a score per pairing (it is still read: its game's order is not known, and
/// the learner starts fresh); a version 1 file (two players, one score) is read as a game
/// between two players.
struct SavedState: Codable, Equatable {
    static let currentVersion = 3

    struct SavedScore: Codable, Equatable {
        var xWins: Int
        var oWins: Int
        var draws: Int

        init(xWins: Int, oWins: Int, draws: Int) {
            self.xWins = xWins
            self.oWins = oWins
            self.draws = draws
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            xWins = try container.wholeNumber(.xWins)
            oWins = try container.wholeNumber(.oWins)
            draws = try container.wholeNumber(.draws)
        }
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
    /// The number of the last finished game the history holds with this state
    /// (``GameHistory/lastGame``): a game the history holds past it was recorded by a save cut
    /// short before this file was replaced, and is dropped at start. Absent in files of earlier
    /// versions, and while no game has been numbered.
    var lastGame: Int?
    /// The game's moves in order, by cell number as on the keypad (version 3).
    var moves: [Int]?
    /// The learner's memory (version 3).
    var learner: SavedLearner?
    /// Against another board, the pairing's game on the board (``RemotePlay/game``); the
    /// database's only (release 0.4's files knew no other board).
    var remoteGame: Int?
    /// The one score of version 1.
    var xWins: Int?
    var oWins: Int?
    var draws: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.wholeNumber(.version)
        cells = try container.decode([String].self, forKey: .cells)
        starter = try container.decode(String.self, forKey: .starter)
        nextStarter = try container.decode(String.self, forKey: .nextStarter)
        opponent = try container.decodeIfPresent(String.self, forKey: .opponent)
        scores = try container.decodeIfPresent([String: SavedScore].self, forKey: .scores)
        lastGame = try container.contains(.lastGame) ? container.wholeNumber(.lastGame) : nil
        moves = try container.decodeIfPresent([Int].self, forKey: .moves)
        learner = try container.decodeIfPresent(SavedLearner.self, forKey: .learner)
        xWins = try container.contains(.xWins) ? container.wholeNumber(.xWins) : nil
        oWins = try container.contains(.oWins) ? container.wholeNumber(.oWins) : nil
        draws = try container.contains(.draws) ? container.wholeNumber(.draws) : nil
    }

    /// The game as the database's rows hold it.
    init(
        cells: [String], starter: String, nextStarter: String, opponent: String, scores: [String: SavedScore], moves: [Int]?, learner: SavedLearner,
        remoteGame: Int = 0
    ) {
        version = Self.currentVersion
        self.remoteGame = remoteGame
        self.cells = cells
        self.starter = starter
        self.nextStarter = nextStarter
        self.opponent = opponent
        self.scores = scores
        self.moves = moves
        self.learner = learner
    }

    init(_ snapshot: GameSnapshot, lastGame: Int? = nil) {
        version = Self.currentVersion
        self.lastGame = lastGame
        cells = snapshot.board.markNames
        starter = snapshot.board.starter.rawValue
        nextStarter = snapshot.nextStarter.rawValue
        opponent = snapshot.opponent.name
        scores = Dictionary(uniqueKeysWithValues: snapshot.scores.map { opponent, score in
            (opponent.name, SavedScore(xWins: score.xWins, oWins: score.oWins, draws: score.draws))
        })
        moves = snapshot.moves.map { $0.map(\.keypadKey) }
        learner = SavedLearner(snapshot.learner)
        remoteGame = snapshot.remoteGame
    }

    /// The snapshot, or why these contents cannot be one.
    func snapshot() throws(StateFileProblem) -> GameSnapshot {
        guard let starter = Player(rawValue: starter) else {
            throw .invalid("starter is \(self.starter.quoted()); it must be \"X\" or \"O\"")
        }
        guard let next = Player(rawValue: nextStarter) else {
            throw .invalid("nextStarter is \(nextStarter.quoted()); it must be \"X\" or \"O\"")
        }
        var marks: [Player?] = []
        for (index, cell) in cells.enumerated() {
            if cell.isEmpty { marks.append(nil) } else if let player = Player(rawValue: cell) { marks.append(player) } else {
                throw .invalid("cell \(index) holds \(cell.quoted()); it must be \"X\", \"O\" or \"\"")
            }
        }
        if let lastGame, !(0...HistoryJournal.gameLimit).contains(lastGame) {
            throw .invalid("lastGame is \(lastGame); it must be 0 to \(HistoryJournal.gameLimit)")
        }
        let (opponent, scores) = try pairings()
        let counts = 0...Score.countLimit
        guard scores.values.allSatisfy({ counts.contains($0.xWins) && counts.contains($0.oWins) && counts.contains($0.draws) }) else {
            throw .invalid("a score outside 0...\(Score.countLimit)")
        }
        let board: Board
        do {
            board = try Board(starter: starter, marks: marks)
        } catch {
            throw .invalid(error.description)
        }
        let moves = try playedMoves(leadingTo: board)
        try checkPairing(against: opponent, starter: starter, moves: moves)
        return GameSnapshot(
            board: board, nextStarter: next, opponent: opponent, scores: scores, moves: moves,
            learner: try learner?.learner() ?? MatchboxLearner(), remoteGame: remoteGame ?? 0)
    }

    /// The pairing's game against another board, checked: 0 (before the inviting board was
    /// heard) or 1 to ``RemotePlay/mostGames``, only against another board, started as the
    /// pairing's game of that number is, with its moves known (both boards follow them).
    private func checkPairing(against opponent: Opponent, starter: Player, moves: MoveList?) throws(StateFileProblem) {
        let game = remoteGame ?? 0
        guard (0...RemotePlay.mostGames).contains(game), game == 0 || opponent.remote != nil else {
            throw .invalid("the other board's game is \(game); it must be 0, or 1 to \(RemotePlay.mostGames) against another board")
        }
        guard opponent.remote != nil else { return }
        guard moves != nil else { throw .invalid("a game against another board without its moves") }
        if game > 0, RemotePlay.starter(ofGame: game) != starter {
            throw .invalid("the other board's game \(game) is started by \(RemotePlay.starter(ofGame: game)), not \(starter)")
        }
    }

    /// The moves, checked to lead from an empty board to `board`; `nil` for a file without them.
    private func playedMoves(leadingTo board: Board) throws(StateFileProblem) -> MoveList? {
        guard let moves else { return nil }
        let positions = moves.compactMap { Position(keypadKey: $0) }
        guard positions.count == moves.count, let list = MoveList(positions),
              let played = try? Board(starter: board.starter).playing(positions), played == board else {
            throw .invalid("moves \(moves) do not lead from an empty board to the cells; they must be the game's cells 1 to 9 in the order played")
        }
        return list
    }

    private func pairings() throws(StateFileProblem) -> (Opponent, [Opponent: Score]) {
        switch version {
        case 1:
            guard let xWins, let oWins, let draws else { throw .invalid("version 1 without its score") }
            return (.person, [.person: Score(xWins: xWins, oWins: oWins, draws: draws)])
        case 2, Self.currentVersion:
            guard let name = opponent, let opponent = Opponent(name: name) else {
                throw .invalid("opponent is \(opponent.map { $0.quoted() } ?? "missing"); it must be one of \(Opponent.nameForms)")
            }
            var result: [Opponent: Score] = [:]
            for (name, score) in scores ?? [:] {
                guard let pairing = Opponent(name: name) else { throw .invalid("a score for \(name.quoted()), which is no opponent") }
                result[pairing] = Score(xWins: score.xWins, oWins: score.oWins, draws: score.draws)
            }
            return (opponent, result)
        default:
            throw .invalid("format version \(version), expected \(Self.currentVersion) (or 1 or 2)")
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

extension KeyedDecodingContainer {
    /// A whole number, or a problem that names the key when the file holds another kind of
    /// number there (JSON decoders report a fraction or a number too large for `Int` as data
    /// that is "not valid JSON", which reads as a damaged file).
    fileprivate func wholeNumber(_ key: Key) throws -> Int {
        do {
            return try decode(Int.self, forKey: key)
        } catch {
            guard let number = try? decode(Double.self, forKey: key) else { throw error }
            throw StateFileProblem.invalid("\(key.stringValue.shown()) is \(number); it must be a whole number")
        }
    }
}
