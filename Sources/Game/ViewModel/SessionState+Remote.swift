import TicTacToe

/// The game with another board, as this board keeps it (``SessionState/remote``).
///
/// Both boards keep the same pairing of games, numbered from 1; game `n` is started by X when
/// `n` is odd and by O when even, so that two boards starting the next game at once start the
/// same one. Each board publishes its game (the link's retained state) and follows the other's
/// (``SessionState/hear(_:)``): a later game of the pairing, or more moves of this one by the
/// other board's mark. Nothing else it says changes the game, so a repeated, late or forged
/// report changes nothing.
public struct RemotePlay: Sendable, Hashable {
    /// The pairing's game on the board; 0 before the inviting board is first heard.
    public var game: Int
    /// The other board was last heard online, playing this board with the mark it is expected to.
    public var isHere: Bool

    public init(game: Int = 0, isHere: Bool = false) {
        self.game = game
        self.isHere = isHere
    }

    /// The most games a pairing numbers (the API's `heard` takes no larger number): far more than
    /// two boards play, few enough that no count overflows.
    public static let mostGames = 1_000_000_000

    /// Who starts the pairing's game `number`: X the odd ones, O the even ones.
    public static func starter(ofGame number: Int) -> Player { number % 2 == 1 ? .x : .o }
}

/// What this board hears of another board through the network: whether it is online, and its
/// game with this board, if it plays this board.
public struct PeerReport: Sendable, Hashable {
    /// Its name (``BoardName``).
    public var board: String
    public var online: Bool
    /// Its game against this board; `nil` while it plays anyone else, or nothing is known.
    public var game: PeerGame?

    public init(board: String, online: Bool, game: PeerGame?) {
        self.board = board
        self.online = online
        self.game = game
    }
}

/// Another board's game against this one, as it says it.
public struct PeerGame: Sendable, Hashable {
    /// The mark its buttons play.
    public var side: Player
    /// The pairing's game it is at (``RemotePlay/game``), from 1.
    public var number: Int
    /// The game's moves, in order.
    public var moves: [Position]
    /// The moves of the pairing's game before, as that board finished it, when it knows them: so
    /// that a board that missed its last move ends it too (``GameViewModel/hear(_:)``).
    public var previous: [Position]?

    public init(side: Player, number: Int, moves: [Position], previous: [Position]? = nil) {
        self.side = side
        self.number = number
        self.moves = moves
        self.previous = previous
    }

    /// The report of the game before, as ``previous`` says it, if there is one.
    public var before: PeerGame? {
        guard let previous, number > 1 else { return nil }
        return PeerGame(side: side, number: number - 1, moves: previous)
    }
}

/// Another board the link sees online on the broker (``SessionState/see(_:)``): its name, and
/// whether it invites this board (it plays this board, this board playing O).
public struct SeenBoard: Sendable, Hashable {
    /// Its name (``BoardName``).
    public var name: String
    public var invites: Bool

    public init(name: String, invites: Bool) {
        self.name = name
        self.invites = invites
    }

    /// The most boards a board keeps in view: the gesture steps through each, so a few more than
    /// a house or a classroom's tables hold.
    public static let most = 16

    /// How many boards' invitations a board remembers having told (``SessionState/see(_:)``),
    /// the latest: more than it ever sees at once.
    static let toldKept = 64

    /// Choosing it: joining its game when it invites this board (it plays X), else inviting it.
    public var opponent: Opponent? { RemoteBoard(name: name, side: invites ? .x : .o).map(Opponent.board) }
}

extension SessionState {
    /// The boards the link sees online now, at most ``SeenBoard/most``, the ones that invite this
    /// board first. The gesture offers each after the board's own opponents
    /// (``opponentChoices``); a board's invitation is told once (``GameEvent/invited(_:)``), and
    /// again only after this board has chosen that board (``choose(_:)``): one that comes and
    /// goes (a link that drops, a board that flaps on purpose) is not told again and again.
    /// Nothing else changes: the game goes on.
    public mutating func see(_ boards: [SeenBoard]) -> GameEvent? {
        let boards = Array(boards.prefix(SeenBoard.most))
        guard boards != seenBoards else { return nil }
        seenBoards = boards
        var told = invitationsTold
        let invitation = boards.first { seen in
            seen.invites && !told.contains(seen.name) && seen.opponent != opponent
        }
        if let invitation { told = Array((told + [invitation.name]).suffix(SeenBoard.toldKept)) }
        if told != invitationsTold { invitationsTold = told }
        return invitation.map { .invited($0.name) }
    }

    /// What the opponent gesture steps through: the board's own opponents
    /// (``Opponent/allCases``), then each board seen online.
    public var opponentChoices: [Opponent] { Opponent.allCases + seenBoards.compactMap(\.opponent) }

    /// The board heard from the other board: when it is the opponent, whether it is here
    /// (online, playing this board with its expected mark, at a game of the pairing), and the game
    /// it is at. A later game of the pairing is started here too, with its moves (first ending
    /// the game before with the moves the report carries of it, ``PeerGame/previous``, should
    /// this board have missed its last); in this game, the moves it adds after the ones both
    /// boards have are taken, in order, each only in its mark's turn and on a free cell. An
    /// earlier game, or the moves this board has already, change nothing. When the two boards'
    /// moves of one game part (a board that lost its last move to a power cut, one that joined or
    /// invited again mid-game), neither can go on, so the pairing's next game starts: the other
    /// board follows it, as the later game.
    ///
    /// One change of state, however much it holds; returns what happened in it, in order (each
    /// move, a game's end, a new game), for the history and the logs: empty for nothing to tell.
    /// A move heard, or the other board back, wakes the lights, as a press at the board would, so
    /// that the person there sees the game go on.
    public mutating func hear(_ report: PeerReport) -> [GameEvent] {
        guard let other = opponent.remote, report.board == other.name else { return [] }
        let wasHere = remote.isHere
        guard report.online, let game = report.game, game.side == other.side, (1...RemotePlay.mostGames).contains(game.number) else {
            remote.isHere = false
            return wasHere ? [.otherBoardAway(other.name)] : []
        }
        remote.isHere = true
        var events: [GameEvent] = []
        if game.number > remote.game, let before = game.before, remote.game == before.number, !board.isOver {
            events += follow(before, of: other)
        }
        events += follow(game, of: other)
        if events.isEmpty && !wasHere { events = [.otherBoardHere(other.name)] }
        if !events.isEmpty { isAsleep = false }
        return events
    }

    /// `game`'s news: a later game begun, then the moves taken, each told, and the end of the
    /// game one of them ends.
    private mutating func follow(_ game: PeerGame, of other: RemoteBoard) -> [GameEvent] {
        var events: [GameEvent] = []
        if game.number > remote.game {
            showsOpponent = false
            events.append(.started(starter: beginRemoteGame(game.number)))
        }
        guard game.number == remote.game else { return events }
        let known = Array(moves ?? MoveList())
        // Late, or as far as this board: nothing to take.
        if game.moves.count <= known.count, known.starts(with: game.moves) { return events }
        guard game.moves.starts(with: known) else { return events + parted() }
        for position in game.moves.dropFirst(known.count) {
            // A move of this board's mark it does not have, or one no game allows: parted.
            guard board.turn == other.side, let next = try? board.playing(position) else { return events + parted() }
            board = next
            events.append(took(position, by: other.side))
            if board.isOver { events.append(.finished(board.outcome)) }
        }
        return events
    }

    /// The other board was waited for ``GameTimings/otherBoardWait`` on end (the session's timer
    /// says when): the game with it is given up, as if two players had been chosen, but without
    /// showing the choice or waking the lights (nobody may be at the board). `nil` when the board
    /// no longer waits.
    public mutating func giveUpWaiting(after wait: Duration) -> GameEvent? {
        guard awaitsOtherBoard, let other = opponent.remote else { return nil }
        let asleep = isAsleep
        isAsleep = false
        guard case .opponentChosen(_, let starter) = choose(.person) else { return nil }
        showsOpponent = false
        isAsleep = asleep
        return .gaveUp(board: other.name, after: wait, starter: starter)
    }

    /// The two boards' games of one number have parted: the next game of the pairing, which the
    /// other board follows (within ``RemotePlay/mostGames``).
    private mutating func parted() -> [GameEvent] {
        guard remote.game < RemotePlay.mostGames else { return [] }
        showsOpponent = false
        return [.started(starter: beginRemoteGame(remote.game + 1))]
    }
}
