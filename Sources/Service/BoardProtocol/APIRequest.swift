import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One line a client sends: a JSON object naming a `command`, with that command's argument.
///
/// ```
/// {"command":"press","cell":5}
/// {"command":"new-game"}
/// {"command":"abandon"}
/// {"command":"opponent","opponent":"computer-2"}
/// {"command":"status"}
/// {"command":"history"}
/// {"command":"history","player":"Alice","outcome":"x-wins","since":"2026-11-01","limit":20}
/// {"command":"reset-learner","games":42,"resets":1}
/// {"command":"teach","games":500,"level":4}
/// {"command":"stop-teaching"}
/// {"command":"heard","board":"kitchen","online":true,"game":{"mark":"O","number":3,"moves":[5,1]}}
/// {"command":"seen","boards":[{"board":"attic","invites":true}]}
/// ```
///
/// Fields a command does not use are ignored, but for `history`'s: a field that is no filter is
/// refused, so that a misspelt one is not taken for none. Each command enters the game the way its button
/// does: `press` as a cell button, `new-game` as a short press of new game (refused mid-game),
/// `abandon` as the hold, `opponent` as the opponent gesture (naming the opponent).
/// `reset-learner` has no button: it replaces the matchbox learner with a fresh one, refused
/// while a game against it is under way; with `games`, only if the learner has played exactly
/// that many games, and with `resets`, only if it has been reset exactly that many times (the
/// counts a page showed when it asked), so that a late confirmation does not reset a learner
/// that has played since, or one reset and brought back to the same count of games meanwhile.
/// `teach` gives the learner a lesson: `games` whole games (1 to ``mostLessonGames``) against
/// the computer at `level` (1 to 4), played on the board a step at a time, its progress in
/// the state's `lesson`; refused while a game against the learner is under way or another
/// lesson is. `stop-teaching` ends the lesson under way, keeping what it taught. `heard` is the
/// network link's report of another board (``HeardReport``), which the board follows when it
/// plays that board; `seen` its list of the boards online (``SeenReport``).
public enum APIRequest: Sendable, Hashable {
    /// A cell, by its keypad number, 1 to 9 (7 8 9 is the top row): ``parse(_:)`` makes no other.
    case press(cell: Int)
    case newGame
    case abandon
    /// Who plays O, by name. The board knows the names and refuses any other (with
    /// ``opponentRule(_:knowing:)``): the protocol carries them, the game defines them.
    case opponent(name: String)
    case status
    /// The latest finished games that match the query's filters (``HistoryQuery``).
    case history(HistoryQuery)
    /// A fresh learner; `games`, `resets`: only if the learner's count of games, and of resets
    /// (``MatchboxLearner/resets``), is still this.
    case resetLearner(games: Int?, resets: Int? = nil)
    /// A lesson of `games` games against the computer at level `level`.
    case teach(games: Int, level: Int)
    case stopTeaching
    /// What the network link heard of another board.
    case heard(HeardReport)
    /// The other boards the network link sees online.
    case seen(SeenReport)

    /// A command's name, as a client writes it: the one place each is written.
    public enum Command: String, CaseIterable, Sendable {
        case press, newGame = "new-game", abandon, opponent, status, history, resetLearner = "reset-learner", teach, stopTeaching = "stop-teaching", heard, seen
    }

    /// The commands, as a client names them.
    public static let commandNames = Command.allCases.map(\.rawValue)

    /// The longest line a client may send, newline excluded.
    public static let maximumLineLength = 4096

    public var command: String { kind.rawValue }

    public var kind: Command {
        switch self {
        case .press: .press
        case .newGame: .newGame
        case .abandon: .abandon
        case .opponent: .opponent
        case .status: .status
        case .history: .history
        case .resetLearner: .resetLearner
        case .teach: .teach
        case .stopTeaching: .stopTeaching
        case .heard: .heard
        case .seen: .seen
        }
    }

    /// The request as a line to send, without its newline.
    public var line: String {
        switch self {
        case .press(let cell): #"{"command":"press","cell":\#(cell)}"#
        case .teach(let games, let level): #"{"command":"teach","games":\#(games),"level":\#(level)}"#
        case .opponent(let name): Self.opponentLine(name)
        case .resetLearner(let games, let resets) where games != nil || resets != nil:
            #"{"command":"\#(command)""# + (games.map { #","games":\#($0)"# } ?? "") + (resets.map { #","resets":\#($0)"# } ?? "") + "}"
        case .history(let query) where query != .all: Self.historyLine(query)
        case .heard(let report): Self.line(.heard, report)
        case .seen(let report): Self.line(.seen, report)
        default: #"{"command":"\#(command)"}"#
        }
    }

    /// Names and times are encoded, not pasted in.
    private static func historyLine(_ query: HistoryQuery) -> String {
        struct Line: Encodable {
            var command = Command.history.rawValue
            var query: HistoryQuery
            func encode(to encoder: any Encoder) throws {
                try query.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(command, forKey: .command)
            }
            enum Key: CodingKey { case command }
        }
        return JSONLine.encode(Line(query: query)) ?? #"{"command":"history"}"#
    }

    /// `command` with the fields of `argument` beside it.
    private static func line(_ command: Command, _ argument: some Encodable) -> String {
        JSONLine.encode(CommandLine(command: command.rawValue, argument: argument)) ?? #"{"command":"\#(command.rawValue)"}"#
    }

    /// A name is the one field that can need escaping: encoded, not pasted in.
    private static func opponentLine(_ name: String) -> String {
        return JSONLine.encode(["command": "opponent", "opponent": name]) ?? #"{"command":"opponent"}"#
    }

    /// The request a line holds (without its newline), or what is wrong with it.
    public static func parse<Bytes: Collection<UInt8>>(_ line: Bytes) -> Result<APIRequest, RequestError> {
        guard line.count <= maximumLineLength else { return .failure(.lineTooLong) }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(RequestError(command: nil, reason: .notJSON, text: "the line is not valid UTF-8"))
        }
        if let (_, scalar) = DecodingError.controlCharacterInText(text) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return .failure(RequestError(command: nil, reason: .notJSON, text: "a raw control character (\(code)) stands inside a string; JSON needs it escaped"))
        }
        if let (_, escape) = DecodingError.badEscapeInText(text) {
            return .failure(RequestError(command: nil, reason: .notJSON, text: "\(escape.quoted()) stands inside a string, and is no escape JSON has"))
        }
        let data = Data(text.utf8)
        let name: String
        do {
            name = try JSONDecoder().decode(Head.self, from: data).command
        } catch let error as DecodingError {
            return .failure(headProblem(error))
        } catch {
            return .failure(RequestError(command: nil, reason: .notJSON, text: "not JSON"))
        }
        guard let command = Command(rawValue: name) else {
            return .failure(RequestError(
                command: nil, reason: .unknownCommand, text: "unknown command \(name.quoted()); the commands are \(commandNames.joined(separator: ", "))"))
        }
        return request(command, in: data)
    }

    /// The request `command` makes with its argument from `data`.
    private static func request(_ command: Command, in data: Data) -> Result<APIRequest, RequestError> {
        switch command {
        case .press:
            return argument(Press.self, of: command.rawValue, in: data).flatMap { press in
                guard cells.contains(press.cell) else {
                    return .failure(RequestError(command: command.rawValue, reason: .badArgument, text: "\"cell\" is \(press.cell); \(cellRule)"))
                }
                return .success(.press(cell: press.cell))
            }
        case .opponent: return argument(Choice.self, of: command.rawValue, in: data).map { choice in .opponent(name: choice.opponent) }
        case .newGame: return .success(.newGame)
        case .abandon: return .success(.abandon)
        case .status: return .success(.status)
        case .history: return historyArgument(in: data)
        case .resetLearner: return resetArgument(in: data)
        case .teach: return lessonArgument(in: data)
        case .stopTeaching: return .success(.stopTeaching)
        case .heard: return HeardReport.request(in: data)
        case .seen: return SeenReport.request(in: data)
        }
    }

    /// `history`'s filters (``HistoryQuery``), each absent or null for any game.
    private static func historyArgument(in data: Data) -> Result<APIRequest, RequestError> {
        let command = Command.history.rawValue
        let query: HistoryQuery
        do {
            query = try JSONDecoder().decode(HistoryQuery.self, from: data)
        } catch let refusal as HistoryQuery.Refusal {
            return .failure(RequestError(command: command, reason: .badArgument, text: refusal.text))
        } catch {
            return .failure(RequestError(command: command, reason: .badArgument, text: "history's filters must be text, and \"limit\" a whole number"))
        }
        if let problem = query.problem() { return .failure(RequestError(command: command, reason: .badArgument, text: problem)) }
        return .success(.history(query))
    }

    /// `reset-learner`'s `games` and `resets`: each absent or null for any learner, else a count.
    private static func resetArgument(in data: Data) -> Result<APIRequest, RequestError> {
        let command = Command.resetLearner.rawValue
        guard let reset = try? JSONDecoder().decode(Reset.self, from: data) else {
            return .failure(RequestError(
                command: command, reason: .badArgument,
                text: "\"games\" and \"resets\" must be whole numbers: the learner's count of games and of resets the reset was asked for"))
        }
        for (name, count) in [("games", reset.games), ("resets", reset.resets)] {
            if let count, count < 0 {
                return .failure(RequestError(command: command, reason: .badArgument, text: "\"\(name)\" is \(count); a count of \(name) is 0 or more"))
            }
        }
        return .success(.resetLearner(games: reset.games, resets: reset.resets))
    }

    /// The most games one lesson plays (the board's ``Lesson/mostGames``, held equal by a test).
    public static let mostLessonGames = 10_000
    /// The computer's levels a lesson may be against.
    public static let lessonLevels = 1...4

    /// `teach`'s `games` and `level`, both required.
    private static func lessonArgument(in data: Data) -> Result<APIRequest, RequestError> {
        let command = Command.teach.rawValue
        guard let lesson = try? JSONDecoder().decode(LessonArguments.self, from: data) else {
            return .failure(RequestError(
                command: command, reason: .badArgument,
                text: "teach needs \"games\", a whole number of games from 1 to \(mostLessonGames), and \"level\", the computer's level from 1 to 4"))
        }
        guard (1...mostLessonGames).contains(lesson.games) else {
            return .failure(RequestError(command: command, reason: .badArgument, text: "\"games\" is \(lesson.games); a lesson is 1 to \(mostLessonGames) games"))
        }
        guard lessonLevels.contains(lesson.level) else {
            return .failure(RequestError(command: command, reason: .badArgument, text: "\"level\" is \(lesson.level); the computer's levels are 1 to 4"))
        }
        return .success(.teach(games: lesson.games, level: lesson.level))
    }

    /// The cells' numbers, as on a numeric keypad.
    public static let cells = 1...9
    private static let cellRange = "from 1 to 9, as on a numeric keypad (7 8 9 is the top row)"
    static let cellRule = "give a cell " + cellRange

    /// Why the board refuses `name` as an opponent: the reply's text, given the names it knows.
    public static func opponentRule(_ name: String, knowing names: String) -> RequestError {
        RequestError(command: "opponent", reason: .unknownOpponent, text: "\"opponent\" is \(name.quoted()); give one of \(names)")
    }

    private struct Head: Decodable { var command: String }
    private struct Press: Decodable { var cell: Int }
    private struct Choice: Decodable { var opponent: String }
    private struct LessonArguments: Decodable {
        var games: Int
        var level: Int
    }

    private struct Reset: Decodable {
        var games: Int?
        var resets: Int?
    }

    private static func headProblem(_ error: DecodingError) -> RequestError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            RequestError(command: nil, reason: .notJSON, text: "not JSON: \(context.debugDescription.shown(limit: 120))")
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            RequestError(command: nil, reason: .notACommand, text: #"a request is a JSON object such as {"command":"press","cell":5}"#)
        case .keyNotFound:
            RequestError(command: nil, reason: .notACommand, text: #"no "command"; send one of "# + commandNames.joined(separator: ", "))
        default:
            RequestError(command: nil, reason: .notACommand, text: #""command" must be text, one of "# + commandNames.joined(separator: ", "))
        }
    }

    private static func argument<Argument: Decodable>(_ type: Argument.Type, of command: String, in data: Data) -> Result<Argument, RequestError> {
        let (key, rule) = type == Press.self ? ("cell", "a whole number " + cellRange) : ("opponent", "text: an opponent's name")
        do {
            return .success(try JSONDecoder().decode(type, from: data))
        } catch DecodingError.keyNotFound {
            return .failure(RequestError(command: command, reason: .badArgument, text: "\(command) needs \"\(key)\": \(rule)"))
        } catch {
            return .failure(RequestError(command: command, reason: .badArgument, text: "\"\(key)\" must be \(rule)"))
        }
    }
}

/// Why a line is not a request, or why the board refused one: the reply's text.
public struct RequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command, when the line named one.
    public var command: String?
    public var reason: ErrorReason
    public var text: String

    public init(command: String?, reason: ErrorReason, text: String) {
        self.command = command
        self.reason = reason
        self.text = text
    }

    public var description: String { text }

    /// A line over ``APIRequest/maximumLineLength``, however it was cut.
    public static let lineTooLong = RequestError(command: nil, reason: .tooLong, text: "the line is longer than \(APIRequest.maximumLineLength) bytes")
}

/// A command's line: its name, and its argument's fields beside it.
private struct CommandLine<Argument: Encodable>: Encodable {
    var command: String
    var argument: Argument

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(command, forKey: .command)
        try argument.encode(to: encoder)
    }

    private enum Key: CodingKey { case command }
}
