import BoardProtocol

/// What each command does:
///
/// | command | done by | answered |
/// | --- | --- | --- |
/// | `press`, `new-game`, `abandon`, `opponent`, `reset-learner`, `teach`, `stop-teaching`, `heard` | ``RemoteControl``, on the game loop | later, through `reply`, after the state it caused |
/// | `status` | the state last shown and the server's ``BoardAPIServer/Facts`` | now |
/// | `history` | the ``GameArchive``'s games that match its filters | now |
///
/// ## Contract
/// - **Threading.** Confined to the server's thread, where ``answer(_:shown:reply:)`` is called;
///   a command for the game loop calls `reply` there, once, and the caller takes it back to its
///   own thread.
/// - **No request stalls the others.** What is answered now costs the server's thread little:
///   `status` reads counters, and `history`, the one large answer, is read (at most
///   ``HistoryQuery/largestLimit`` games) and encoded only when its query or the archive's
///   revision differs from the last answer's: a flood of the same question costs one reading.
/// - **Memory.** One encoded `history` answer (about 70 KB for 100 games), with its games.
struct CommandHandler {
    enum Answer {
        /// The reply, encoded.
        case now([UInt8])
        /// Running on the game loop; `reply` will be called with the answer.
        case onTheLoop
    }

    private let control: RemoteControl
    private let facts: BoardAPIServer.Facts
    private let history: (any GameArchive)?
    private let encoder: MessageEncoder
    /// The last `history` answer: its query, the archive's revision it was read at, and the line.
    private var historyAnswer: (query: HistoryQuery, revision: Int, line: [UInt8])?

    init(control: RemoteControl, facts: BoardAPIServer.Facts, history: (any GameArchive)?, encoder: MessageEncoder) {
        self.control = control
        self.facts = facts
        self.history = history
        self.encoder = encoder
    }

    /// - Parameter shown: the view state the clients were last sent, `nil` before the first.
    mutating func answer(
        _ request: APIRequest, shown: ViewState?, reply: @escaping @Sendable (APIMessage) -> Void
    ) -> Answer {
        switch request {
        case .press, .newGame, .abandon, .opponent, .resetLearner, .teach, .stopTeaching, .heard, .seen:
            control.perform(request, reply: reply)
            return .onTheLoop
        case .status:
            return .now(encoder.line(status(shown)))
        case .history(let query):
            return .now(historyLine(query))
        }
    }

    private func status(_ shown: ViewState?) -> APIMessage {
        guard let shown else {
            return .error(APIRequest.status.command, .notReady, "the board has not shown its first state yet; ask again")
        }
        let counts = control.playCounts
        let now = WallTime.now()
        let saves = facts.saves()
        let health = APIMessage.Health(
            since: facts.since.description, uptimeSeconds: max(0, now.seconds - facts.since.seconds),
            gamesPlayed: counts.gamesPlayed, moves: counts.moves, saves: saves.count, lastSave: saves.last?.description,
            scanRate: facts.scanRate, chip: facts.chip)
        return .status(shown, health: health)
    }

    private mutating func historyLine(_ query: HistoryQuery) -> [UInt8] {
        guard let history else { return encoder.line(.history([])) }
        let revision = history.revision()
        if let historyAnswer, historyAnswer.query == query, historyAnswer.revision == revision { return historyAnswer.line }
        let games: [PlayedGame]
        do {
            games = try history.games(query)
        } catch {
            return encoder.line(.error(APIRequest.Command.history.rawValue, .notTaken, "the history cannot be read: \(error)"))
        }
        let line = encoder.line(.history(games))
        historyAnswer = (query, revision, line)
        return line
    }
}

extension BoardAPIServer {
    /// What `status` reports besides the view state, read when asked.
    public struct Facts: Sendable {
        public var since: WallTime
        public var scanRate: Int
        public var chip: APIMessage.ChipName
        public var saves: @Sendable () -> SavesWritten

        public init(
            since: WallTime, scanRate: Int, chip: APIMessage.ChipName, saves: @escaping @Sendable () -> SavesWritten = { SavesWritten() }
        ) {
            self.since = since
            self.scanRate = scanRate
            self.chip = chip
            self.saves = saves
        }
    }

    /// The saves of the game written to disk (each flushed, the directory too) since the board
    /// started: how many, and when the last one was.
    public struct SavesWritten: Sendable, Hashable {
        public var count = 0
        public var last: WallTime?

        public init(count: Int = 0, last: WallTime? = nil) {
            self.count = count
            self.last = last
        }
    }
}

/// Where the finished games are kept, for `history`: the board's memory.
public protocol GameArchive: Sendable {
    /// A number that changes whenever the games may have, once every game finished before the
    /// call is in: the same query at the same revision has the same answer.
    func revision() -> Int

    /// The latest games that match `query`, oldest first; throws what stopped the reading.
    func games(_ query: HistoryQuery) throws -> [PlayedGame]
}
