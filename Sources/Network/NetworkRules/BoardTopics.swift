/// A board's topics on the broker, all under `tictactoe/<board>/` (docs/NETWORK.md): the one
/// place each is named.
///
/// | topic | retained | who publishes | what |
/// | --- | --- | --- | --- |
/// | `state` | yes | the board's link | the board's latest `state` line, as its API sends it |
/// | `presence` | yes | the link; the broker, as its will | `online` or `offline` |
/// | `events` | no | the link | one JSON object a move, game over, new game or opponent |
/// | `commands` | no | anyone the broker lets | one API command (`network.allow = "play"` only) |
/// | `answers` | no | the link | the board's answer to each command |
public struct BoardTopics: Sendable, Hashable {
    /// Every topic of this project begins with it.
    public static let root = "tictactoe"

    public let board: String

    public init(board: String) {
        self.board = board
    }

    public var state: String { topic("state") }
    public var presence: String { topic("presence") }
    public var events: String { topic("events") }
    public var commands: String { topic("commands") }
    public var answers: String { topic("answers") }

    private func topic(_ leaf: String) -> String { "\(Self.root)/\(board)/\(leaf)" }

    /// What ``presence`` holds while the board is up, and what the broker sets it to (the link's
    /// will) when the link drops without saying goodbye.
    public static let online = "online"
    public static let offline = "offline"
}
