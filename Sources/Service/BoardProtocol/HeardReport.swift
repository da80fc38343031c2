import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `heard`'s argument: what the network link heard of another board, for the board to follow
/// (``APIRequest/heard(_:)``).
///
/// ```
/// {"command":"heard","board":"kitchen","online":true,"game":{"mark":"O","number":3,"moves":[5,1]}}
/// ```
///
/// `board` is its name; `online` whether it is connected; `game` its game against this board,
/// null while it plays anyone else: the mark its buttons play, the pairing's game it is at, and
/// that game's moves in order by cell number. Only the link sends it: the web view refuses it
/// from a page, and the link takes it from no one on the broker.
public struct HeardReport: Codable, Sendable, Hashable {
    public var board: String
    public var online: Bool
    public var game: Game?

    public struct Game: Codable, Sendable, Hashable {
        /// "X" or "O".
        public var mark: String
        /// The pairing's game, from 1 to ``HeardReport/mostGames``.
        public var number: Int
        /// Cell numbers, 1 to 9, each once, at most nine.
        public var moves: [Int]
        /// The moves of the pairing's game before, as that board ended it, when it says them:
        /// the same rule as ``moves``.
        public var previous: [Int]?

        public init(mark: String, number: Int, moves: [Int], previous: [Int]? = nil) {
            self.mark = mark
            self.number = number
            self.moves = moves
            self.previous = previous
        }
    }

    public init(board: String, online: Bool, game: Game?) {
        self.board = board
        self.online = online
        self.game = game
    }

    /// The most games a pairing numbers: far more than boards play, few enough that no count
    /// overflows.
    public static let mostGames = 1_000_000_000

    /// What is wrong with the report, or `nil`.
    public var problem: String? {
        guard BoardName.isValid(board) else { return "\"board\" must be a board's name: \(BoardName.form)" }
        guard let game else { return nil }
        guard game.mark == "X" || game.mark == "O" else { return "\"game\"'s \"mark\" must be \"X\" or \"O\"" }
        guard (1...Self.mostGames).contains(game.number) else { return "\"game\"'s \"number\" must be 1 to \(Self.mostGames)" }
        for (field, moves) in [("moves", game.moves), ("previous", game.previous ?? [])] {
            guard moves.count <= 9, moves.allSatisfy(APIRequest.cells.contains), Set(moves).count == moves.count else {
                return "\"game\"'s \"\(field)\" must be cell numbers 1 to 9, each at most once"
            }
        }
        return nil
    }

    /// The request `data` holds, or why not.
    static func request(in data: Data) -> Result<APIRequest, RequestError> {
        let command = APIRequest.Command.heard.rawValue
        guard let report = try? JSONDecoder().decode(HeardReport.self, from: data) else {
            return .failure(RequestError(
                command: command, reason: .badArgument,
                text: "heard needs \"board\" (a name), \"online\" (true or false) and \"game\" (null, or its \"mark\", \"number\" and \"moves\")"))
        }
        if let problem = report.problem { return .failure(RequestError(command: command, reason: .badArgument, text: problem)) }
        return .success(.heard(report))
    }

    /// The report as JSON, without the command.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(board, forKey: .board)
        try container.encode(online, forKey: .online)
        try container.encode(game, forKey: .game)
    }
}
