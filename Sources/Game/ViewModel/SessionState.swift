import Matchboxes
import TicTacToe

/// Everything a board session is at one moment: the single source of truth the view model's
/// outputs are all derived from.
///
/// Each input is one `mutating` call here, made inside one `modify` of the view model's state
/// property, so an input produces exactly one new state, and so at most one new frame and one
/// new snapshot, never an intermediate one. Pure: no clock, no timers, no I/O (the session
/// runs the timers and calls ``endFlash()``, ``toggleBlink()`` and ``fallAsleep()``).
public struct SessionState: Sendable, Hashable {
    public var board: Board
    /// Who starts the next game.
    public var nextStarter: Player
    /// Who the board plays: a second person, the computer at a level, the learner, or another
    /// board. Kept as its kind inline and another board's name beside the learner, so that a
    /// copy of the state stays a plain value and one reference (see ``learner``).
    public var opponent: Opponent {
        get { opponentKind.opponent(shared.boards.opponent) }
        set {
            opponentKind = OpponentKind(newValue)
            if shared.boards.opponent != newValue.remote { mutateShared { $0.boards.opponent = newValue.remote } }
        }
    }
    /// The kind of ``opponent``, what the hot path asks.
    private var opponentKind: OpponentKind
    /// The game with another board, when one is the opponent: which game of the pairing this is,
    /// and whether that board is heard playing it.
    public var remote: RemotePlay
    /// The score of each of the board's own pairings: two players, each level of the computer,
    /// the learner (other boards': ``score(against:)``).
    public var scores: Scoreboard
    /// A cell whose press was just refused: it flickers amber.
    public var flashing: Position?
    /// The phase of the refused press's flicker: on or off.
    public var flashLit: Bool
    /// The phase of the end-of-game blink: on or off.
    public var blinkOn: Bool
    /// The lights have gone dark after a long idle spell.
    public var isAsleep: Bool
    /// The opponent was just chosen: the matrix shows the choice for a moment.
    public var showsOpponent: Bool
    /// This game's moves in order; `nil` when not known (the game was carried over from a file
    /// that kept only its marks).
    public var moves: MoveList?
    /// The matchbox learner's memory, which learns at the end of each game it plays.
    public var learner: MatchboxLearner {
        get { shared.learner }
        set { mutateShared { $0.learner = newValue } }
    }

    /// The learner's lesson, under way or the last one this session (not saved: a restart ends
    /// it, keeping what it taught).
    public internal(set) var lesson: Lesson?

    /// The learner, the other board and the scores against other boards, behind one reference:
    /// every input copies the session state at least once on its way to the views, and these
    /// (buffers and text, changed once a game or less) are what a copy would retain and release.
    /// Copied on write, so the state is still a value.
    private var shared: SharedParts

    /// The boards whose invitation the board has told, the latest last (``see(_:)``).
    var invitationsTold: [String] {
        get { shared.boards.told }
        set { mutateShared { $0.boards.told = newValue } }
    }

    /// The other boards the link sees online (``see(_:)``); not saved.
    public internal(set) var seenBoards: [SeenBoard] {
        get { shared.boards.seen }
        set { mutateShared { $0.boards.seen = newValue } }
    }

    private mutating func mutateShared(_ change: (SharedParts) -> Void) {
        if !isKnownUniquelyReferenced(&shared) { shared = shared.copy() }
        change(shared)
    }

    /// A session carrying on from `snapshot`, awake.
    public init(snapshot: GameSnapshot) {
        board = snapshot.board
        nextStarter = snapshot.nextStarter
        opponentKind = OpponentKind(snapshot.opponent)
        scores = Scoreboard(snapshot.scores)
        flashing = nil
        flashLit = true
        blinkOn = true
        isAsleep = false
        showsOpponent = false
        moves = snapshot.moves
        // Not heard yet: a board restored mid-game waits for the other until the network says.
        remote = RemotePlay(game: snapshot.remoteGame, isHere: false)
        var boardScores: [RemoteBoard: Score] = [:]
        for (opponent, score) in snapshot.scores { if let remote = opponent.remote { boardScores[remote] = score } }
        shared = SharedParts(learner: snapshot.learner, boards: OtherBoards(opponent: snapshot.opponent.remote, scores: boardScores))
        lesson = nil
    }

    /// The score of the pairing now at the board.
    public var score: Score { score(against: opponent) }

    /// The score of the pairing with `opponent`.
    public func score(against opponent: Opponent) -> Score {
        guard let remote = opponent.remote else { return scores[opponent] }
        return shared.boards.scores[remote] ?? Score()
    }

    /// Every pairing that has played a game, and its score: what a snapshot keeps.
    public var playedScores: [Opponent: Score] {
        var played = scores.played
        for (remote, score) in shared.boards.scores { played[.board(remote)] = score }
        return played
    }

    /// What to save to survive a restart.
    public var snapshot: GameSnapshot {
        GameSnapshot(
            board: board, nextStarter: nextStarter, opponent: opponent, scores: playedScores, moves: moves, learner: learner,
            remoteGame: remote.game)
    }

    /// Whether the blink runs: the game is over and the lights are on, or the learner thinks
    /// (its box is shown in the blink's lit phase).
    public var isBlinking: Bool { (board.isOver || showsLearnersBox || awaitsOtherBoard) && !isAsleep }

    /// Whether the game waits for the other board: one is the opponent, and it is not heard
    /// playing this game (the network, the broker or the other board is down, or it has not
    /// taken the invitation yet). A press at this board is refused meanwhile; the game goes on
    /// when that board is heard again.
    public var awaitsOtherBoard: Bool { opponentKind.isBoard && !remote.isHere }

    /// Whether the learner is thinking about its move, its box for the board shown.
    public var showsLearnersBox: Bool { opponentKind == .learner && awaitsComputer }

    /// Whether a short press of new game starts a new game (a hold always does).
    public var acceptsNewGame: Bool { board.isOver || isAsleep }

    /// Whether the computer (at a level, or the learner) should move now: it plays O, it is
    /// O's turn, and the lights are on and show the game (not the choice of opponent).
    public var awaitsComputer: Bool {
        opponentKind.isMachine && board.turn == .o && !isAsleep && !showsOpponent
    }

    /// A cell was pressed, by a person at the buttons or by the computer: it wakes the lights, or
    /// takes the mover's mark, or flickers amber on an occupied cell (or, against the computer or
    /// another board, on any cell a person presses in their turn, or while the other board is
    /// waited for), or is ignored after the end. A move that ends the game scores it for the
    /// pairing, teaches the learner if it played, and starts the blink on its bright phase.
    public mutating func press(_ press: CellPress) -> GameEvent {
        if isAsleep { return wake() }
        showsOpponent = false
        if case .person(let position) = press, awaitsOtherBoard {
            refuse(position)
            return .pressWhileWaiting(position)
        }
        guard let mover = board.turn else { return .ignored(press.position) }
        switch press {
        case .person(let position) where mover == opponentKind.othersSide:
            refuse(position)
            return .othersTurn(position)
        case .computer(let position) where !opponentKind.isMachine || mover == .x:
            return .ignored(position)
        default: break
        }
        do {
            board = try board.playing(press.position)
        } catch {
            refuse(press.position)
            return .refused(press.position, error)
        }
        return took(press.position, by: mover)
    }

    /// `mover`'s mark is in `position` now (``board`` holds it): its bookkeeping.
    mutating func took(_ position: Position, by mover: Player) -> GameEvent {
        flashing = nil
        moves?.append(position)
        // A blink that starts now (the game's end, the learner's box) starts on its bright phase.
        blinkOn = true
        if board.isOver {
            if let remote = opponent.remote {
                let recorded = score.recording(board.outcome)
                mutateShared { $0.boards.scores[remote] = recorded }
            } else {
                scores[opponent] = score.recording(board.outcome)
            }
            if opponentKind == .learner, let moves { learner.learn(from: FinishedGame(starter: board.starter, learner: .o, moves: Array(moves))) }
        }
        return .moved(mover, position)
    }

    /// New game was asked for (a short press once over, or a hold): wakes the lights if they
    /// are dark, else starts the next game with the player whose turn it is to start.
    public mutating func startNewGame() -> GameEvent {
        if isAsleep { return wake() }
        showsOpponent = false
        if opponentKind.isBoard {
            // The game is kept while the other board is away (to give it up, choose another
            // opponent); and there is no later game than the last a pairing numbers.
            guard !awaitsOtherBoard, remote.game < RemotePlay.mostGames else { return .waitingForBoard }
            return .started(starter: beginRemoteGame(remote.game + 1))
        }
        return .started(starter: beginNextGame())
    }

    /// The opponent gesture (new game held, a cell tapped): the next opponent in
    /// ``opponentChoices`` plays from a new game on, and the matrix shows who it is. From another
    /// board no longer seen, the first choice.
    public mutating func chooseNextOpponent() -> GameEvent {
        let choices = opponentChoices
        guard let index = choices.firstIndex(of: opponent) else { return choose(choices[0]) }
        return choose(choices[(index + 1) % choices.count])
    }

    /// `chosen` plays O from a new game on, and the matrix shows who it is (the board's API
    /// names an opponent instead of stepping to the next).
    ///
    /// Another board playing O is invited: this board plays X, from the pairing's first game on
    /// (which X starts). Another board playing X is joined: this board waits, its cells empty,
    /// until it hears that board's game (``hear(_:)``).
    public mutating func choose(_ chosen: Opponent) -> GameEvent {
        if isAsleep { return wake() }
        opponent = chosen
        // Its next invitation is news again.
        if let name = chosen.remote?.name, invitationsTold.contains(name) { invitationsTold.removeAll { $0 == name } }
        showsOpponent = true
        remote = RemotePlay()
        let starter: Player
        switch chosen.remote?.side {
        case nil: starter = beginNextGame()
        case .o?: starter = beginRemoteGame(1)
        case .x?:
            starter = RemotePlay.starter(ofGame: 1)
            beginBoard(starter: starter)
        }
        return .opponentChosen(opponent, starter: starter)
    }

    /// The choice of opponent has been shown long enough.
    public mutating func endShowingOpponent() {
        showsOpponent = false
        blinkOn = true
    }

    /// The refused press's flicker is over.
    public mutating func endFlash() {
        flashing = nil
        flashLit = true
    }

    /// The flicker's next phase.
    public mutating func toggleFlash() { flashLit.toggle() }

    /// A new refused cell flickers from its lit phase; the same cell refused again keeps its
    /// phase, so that presses drummed faster than the flicker cannot hold it lit, steady amber
    /// (which, without colour, reads as a mark).
    mutating func refuse(_ position: Position) {
        if flashing != position { flashLit = true }
        flashing = position
    }

    /// The blink's next phase.
    public mutating func toggleBlink() { blinkOn.toggle() }

    /// The idle time ran out. Returns `false` if the lights were dark already.
    public mutating func fallAsleep() -> Bool {
        guard !isAsleep else { return false }
        isAsleep = true
        flashing = nil
        showsOpponent = false
        return true
    }

    private mutating func beginNextGame() -> Player {
        let starter = nextStarter
        nextStarter = starter.opponent
        beginBoard(starter: starter)
        return starter
    }

    /// The pairing's game `number` with another board, which both boards start the same way.
    mutating func beginRemoteGame(_ number: Int) -> Player {
        let finished = number == remote.game + 1 && board.isOver ? moves.map(Array.init) : nil
        if finished != previousRemoteMoves { previousRemoteMoves = finished }
        let starter = RemotePlay.starter(ofGame: number)
        remote.game = number
        beginBoard(starter: starter)
        return starter
    }

    /// The moves of the pairing's game before this one, when it ended here: what this board
    /// publishes for the other board to finish it too, should it have missed the last move.
    public internal(set) var previousRemoteMoves: [Position]? {
        get { shared.boards.previousGame }
        set { mutateShared { $0.boards.previousGame = newValue } }
    }

    private mutating func beginBoard(starter: Player) {
        board = Board(starter: starter)
        moves = MoveList()
        flashing = nil
        blinkOn = true
    }

    mutating func wake() -> GameEvent {
        isAsleep = false
        blinkOn = true
        return .wokeUp
    }
}

/// What ``SessionState`` keeps behind its one reference: the learner and the other boards;
/// changed only while uniquely referenced (``SessionState``'s `mutateShared`), so sharing it
/// between threads is sharing a value.
private final class SharedParts: @unchecked Sendable, Hashable {
    var learner: MatchboxLearner
    var boards: OtherBoards

    init(learner: MatchboxLearner, boards: OtherBoards) {
        self.learner = learner
        self.boards = boards
    }

    func copy() -> SharedParts { SharedParts(learner: learner, boards: boards) }

    static func == (left: SharedParts, right: SharedParts) -> Bool {
        left === right || (left.learner == right.learner && left.boards == right.boards)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(learner)
        hasher.combine(boards)
    }
}

/// What the session keeps of other boards: each changes a game at a time or less.
private struct OtherBoards: Hashable {
    /// The board played, when one is.
    var opponent: RemoteBoard?
    /// The score of each pairing with another board.
    var scores: [RemoteBoard: Score] = [:]
    /// The boards the link sees online.
    var seen: [SeenBoard] = []
    /// The pairing's game before this one, when it ended here.
    var previousGame: [Position]?
    /// The boards whose invitation was told, the latest last.
    var told: [String] = []
}

/// The kind of an ``Opponent``, held inline in the session's state: a plain value, what the hot
/// path asks (another board's name is kept apart, in ``SharedParts``).
private enum OpponentKind: Hashable {
    case person
    case computer(ComputerLevel)
    case learner
    case board(Player)

    init(_ opponent: Opponent) {
        switch opponent {
        case .person: self = .person
        case .computer(let level): self = .computer(level)
        case .learner: self = .learner
        case .board(let remote): self = .board(remote.side)
        }
    }

    /// The opponent of this kind, another board's being `otherBoard`.
    func opponent(_ otherBoard: RemoteBoard?) -> Opponent {
        switch self {
        case .person: .person
        case .computer(let level): .computer(level)
        case .learner: .learner
        case .board: otherBoard.map(Opponent.board) ?? .person
        }
    }

    var isMachine: Bool {
        switch self {
        case .computer, .learner: true
        case .person, .board: false
        }
    }

    var isBoard: Bool { if case .board = self { true } else { false } }

    /// The mark this board's own buttons may not play: O against the computer or the learner,
    /// the other board's mark against it; `nil` for two players at the board.
    var othersSide: Player? {
        switch self {
        case .person: nil
        case .computer, .learner: .o
        case .board(let side): side
        }
    }
}

/// A cell pressed: by a person at the buttons, or by the computer opponent. Both enter the game
/// the same way; only a person can press in the computer's turn, and is refused.
public enum CellPress: Sendable, Hashable {
    case person(Position)
    case computer(Position)

    public var position: Position {
        switch self {
        case .person(let position), .computer(let position): position
        }
    }
}
