import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One message the page sends over its WebSocket: a command of the board's API
/// (docs/API.md), passed on to the board, or a `ping` the web service answers itself.
///
/// ```
/// {"command":"press","cell":5}
/// {"command":"ping"}
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

    /// The longest message a page may send: far more than any command needs.
    public static let maximumLength = 1024

    /// The request `bytes` hold, or why they are refused. `playing`: whether pages may change
    /// the game (`web.allow = "play"`), or only watch it.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, playing: Bool) -> Result<PageRequest, RequestError> {
        guard bytes.count <= maximumLength else {
            return .failure(RequestError(command: nil, reason: .tooLong, text: "a message is at most \(maximumLength) bytes"))
        }
        if let head = try? JSONDecoder().decode(Head.self, from: Data(bytes)), head.command == "ping" {
            return .success(.ping)
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
