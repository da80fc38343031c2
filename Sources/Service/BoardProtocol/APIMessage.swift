/// One line the board sends to a client of its API: a JSON object whose `type` says which of
/// the optional fields it carries (docs/API.md lists every type with an example).
///
/// | type | when | fields |
/// | --- | --- | --- |
/// | `hello` | first, on connecting | `protocol`, `program`, `chip`, `names`, `opponent` |
/// | `state` | next, and after every change of what the board shows | `state` |
/// | `ok` | a command was done | `command`, `text` |
/// | `error` | a command was refused, or a line was not a command | `command` (when known), `reason`, `text` |
/// | `status` | answers `status` | `state`, `health` |
/// | `history` | answers `history` | `games` |
/// | `bye` | the board closes the connection | `text` |
///
/// Clients must ignore fields and types they do not know: later versions of the protocol may
/// add some without changing ``APIMessage/protocolVersion``, which changes only when a field's
/// meaning does.
public struct APIMessage: Codable, Sendable, Hashable {
    /// The version of the protocol this program speaks.
    public static let protocolVersion = 1

    /// The longest line a client of the board takes, newline excluded: far above the longest the
    /// board sends (a history of 100 games, about 70 KB), so that a later board's longer lines
    /// still pass, and bounded, so that a stream without newlines cannot grow a client without end.
    public static let maximumLineLength = 1 << 22

    /// A message's type. Not an enum: a client reads a type it does not know (a later
    /// version's) as such and skips the message.
    public struct Kind: RawRepresentable, Codable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let hello = Kind(rawValue: "hello")
        public static let state = Kind(rawValue: "state")
        public static let ok = Kind(rawValue: "ok")
        public static let error = Kind(rawValue: "error")
        public static let status = Kind(rawValue: "status")
        public static let history = Kind(rawValue: "history")
        public static let bye = Kind(rawValue: "bye")
    }

    public var type: Kind
    public var `protocol`: Int?
    /// The program and its version: "tictactoe" and `ProgramVersion.current`, a space between.
    public var program: String?
    public var chip: ChipName?
    public var names: ViewState.Names?
    public var opponent: String?
    public var state: ViewState?
    /// The command a reply answers.
    public var command: String?
    /// Why an `error`: an ``ErrorReason``'s name. Text, not the enumeration, so that a later
    /// board's reason leaves the message readable (``errorReason`` is `nil` for it).
    public var reason: String?
    /// What was done, or why not, in a sentence.
    public var text: String?
    public var health: Health?
    public var games: [PlayedGame]?

    public init(type: Kind) { self.type = type }

    /// The chip the board plays on.
    public struct ChipName: Codable, Sendable, Hashable {
        public var name: String
        public var label: String

        public init(name: String, label: String) {
            self.name = name
            self.label = label
        }
    }

    /// How the service is doing, for `status`.
    public struct Health: Codable, Sendable, Hashable {
        /// When the board started, in UTC (ISO 8601).
        public var since: String
        public var uptimeSeconds: Int
        /// Games finished and moves made since the board started.
        public var gamesPlayed: Int
        public var moves: Int
        /// Saves of the game written to the state directory since the board started, each on
        /// disk (flushed) when counted; and when the last was (UTC), if there was one.
        public var saves: Int
        public var lastSave: String?
        /// Full frames of the LED matrix a second.
        public var scanRate: Int
        public var chip: ChipName

        public init(
            since: String, uptimeSeconds: Int, gamesPlayed: Int, moves: Int, saves: Int, lastSave: String?, scanRate: Int,
            chip: ChipName
        ) {
            self.since = since
            self.uptimeSeconds = uptimeSeconds
            self.gamesPlayed = gamesPlayed
            self.moves = moves
            self.saves = saves
            self.lastSave = lastSave
            self.scanRate = scanRate
            self.chip = chip
        }
    }

    // MARK: The messages the board sends

    public static func hello(program: String, chip: ChipName, state: ViewState) -> APIMessage {
        var message = APIMessage(type: .hello)
        message.protocol = protocolVersion
        message.program = program
        message.chip = chip
        message.names = state.names
        message.opponent = state.opponent
        return message
    }

    public static func state(_ state: ViewState) -> APIMessage {
        var message = APIMessage(type: .state)
        message.state = state
        return message
    }

    public static func ok(_ command: String, _ text: String) -> APIMessage {
        var message = APIMessage(type: .ok)
        message.command = command
        message.text = text
        return message
    }

    public static func error(_ command: String?, _ reason: ErrorReason, _ text: String) -> APIMessage {
        var message = APIMessage(type: .error)
        message.command = command
        message.reason = reason.rawValue
        message.text = text
        return message
    }

    /// A refusal, with its reason and its sentence.
    public static func error(_ refusal: RequestError) -> APIMessage {
        error(refusal.command, refusal.reason, refusal.text)
    }

    /// The reason of an `error`, if this program knows it.
    public var errorReason: ErrorReason? { reason.flatMap(ErrorReason.init(rawValue:)) }

    public static func status(_ state: ViewState, health: Health) -> APIMessage {
        var message = APIMessage(type: .status)
        message.state = state
        message.health = health
        return message
    }

    public static func history(_ games: [PlayedGame]) -> APIMessage {
        var message = APIMessage(type: .history)
        message.games = games
        return message
    }

    public static func bye(_ text: String) -> APIMessage {
        var message = APIMessage(type: .bye)
        message.text = text
        return message
    }
}
