import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One message the page sends over its WebSocket: a command of the board's API
/// (docs/API.md), passed on to the board, or one of the web view's own, which it answers
/// itself: `ping`, and `boards` (whether the page shows the boards view).
///
/// ```
/// {"command":"press","cell":5}
/// {"command":"ping"}
/// {"command":"boards","watch":true}
/// ```
///
/// The page is held to the board's rules for a command and to the web view's own: a message of
/// at most ``maximumLength`` bytes, and, where the web view is for watching only, no command
/// that changes the game.
public enum PageRequest: Sendable, Hashable {
    case board(APIRequest)
    /// Keeps the connection alive through the server's idle time-out, and tells the page its
    /// connection still works (a phone's connection can die without a word).
    case ping
    /// The page shows the boards view (`true`): send it every board on the broker, and each
    /// change; or no longer (`false`).
    case boards(watch: Bool)

    /// The web view's own commands, beside the board's.
    public static let ownCommands: Set = ["ping", "boards"]

    /// The longest message a page may send: far more than any command needs.
    public static let maximumLength = 1024

    /// The request `bytes` hold, or why they are refused. `playing`: whether pages may change
    /// the game (`web.allow = "play"`), or only watch it.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, playing: Bool) -> Result<PageRequest, RequestError> {
        guard bytes.count <= maximumLength else {
            return .failure(RequestError(command: nil, reason: .tooLong, text: "a message is at most \(maximumLength) bytes"))
        }
        if let head = try? JSONDecoder().decode(Head.self, from: Data(bytes)), ownCommands.contains(head.command) {
            guard head.command == "boards" else { return .success(.ping) }
            guard let watch = (try? JSONDecoder().decode(Watch.self, from: Data(bytes)))?.watch else {
                return .failure(RequestError(command: head.command, reason: .badArgument, text: "boards needs \"watch\": true or false"))
            }
            return .success(.boards(watch: watch))
        }
        return APIRequest.parse(bytes).flatMap { request in
            guard !request.isTheLinks else {
                return .failure(RequestError(
                    command: request.command, reason: .linkOnly,
                    text: "\(request.command) is the network link's report of other boards; a page never sends it"))
            }
            guard playing || !request.changesTheGame else {
                return .failure(RequestError(
                    command: request.command, reason: .watchOnly, text: "this board's web view is for watching only (web.allow = \"watch\" in its configuration)"))
            }
            return .success(.board(request))
        }
    }

    private struct Head: Decodable { var command: String }
    private struct Watch: Decodable { var watch: Bool }
}

extension APIRequest {
    /// Whether the request changes what the board shows or keeps (a press, a new game, the
    /// opponent, the learner), rather than asking about it.
    public var changesTheGame: Bool {
        switch self {
        case .press, .newGame, .abandon, .opponent, .resetLearner, .teach, .stopTeaching, .heard, .seen: true
        case .status, .history: false
        }
    }

    /// Whether only the network link sends it: what it heard of other boards.
    public var isTheLinks: Bool {
        switch self {
        case .heard, .seen: true
        default: false
        }
    }
}
