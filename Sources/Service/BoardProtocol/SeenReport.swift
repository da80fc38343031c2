import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `seen`'s argument: the other boards the network link sees online on the broker, for the board
/// to offer as opponents (``APIRequest/seen(_:)``).
///
/// ```
/// {"command":"seen","boards":[{"board":"attic","invites":true},{"board":"kitchen","invites":false}]}
/// ```
///
/// Each by name, with whether it invites this board (it chose this board as its opponent,
/// playing X): at most ``most``, each once, the ones that invite first. The whole list each time:
/// a board not in it is no longer seen. Only the link sends it: the web view refuses it from a
/// page, and the link takes it from no one on the broker.
public struct SeenReport: Codable, Sendable, Hashable {
    public var boards: [Board]

    public struct Board: Codable, Sendable, Hashable {
        public var board: String
        public var invites: Bool

        public init(board: String, invites: Bool) {
            self.board = board
            self.invites = invites
        }
    }

    public init(boards: [Board]) {
        self.boards = boards
    }

    /// The most boards a list holds: the board offers each on its buttons.
    public static let most = 16

    /// What is wrong with the list, or `nil`.
    public var problem: String? {
        guard boards.count <= Self.most else { return "\"boards\" holds at most \(Self.most) boards" }
        guard boards.allSatisfy({ BoardName.isValid($0.board) }) else { return "each \"board\" must be a board's name: \(BoardName.form)" }
        guard Set(boards.map(\.board)).count == boards.count else { return "each board may be listed once" }
        return nil
    }

    /// The request `data` holds, or why not.
    static func request(in data: Data) -> Result<APIRequest, RequestError> {
        let command = APIRequest.Command.seen.rawValue
        guard let report = try? JSONDecoder().decode(SeenReport.self, from: data) else {
            return .failure(RequestError(
                command: command, reason: .badArgument, text: "seen needs \"boards\": a list of {\"board\": a name, \"invites\": true or false}"))
        }
        if let problem = report.problem { return .failure(RequestError(command: command, reason: .badArgument, text: problem)) }
        return .success(.seen(report))
    }
}
