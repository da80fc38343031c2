import Presentation
import TicTacToe

/// What the board shows, as the board's API sends it: the cells, whose turn, the outcome and
/// its lines, the refused cell, whether the lights sleep, who plays O, whether the computer is
/// about to move, and the score of every pairing.
///
/// A pure function of the session state (``init(_:players:)``), with nothing of the LEDs'
/// animation in it: the blink's phase is not a change of what the board shows, so a blinking
/// board sends no state messages.
///
/// Cells are numbered as the simulator's keys and the numeric keypad are: 7 8 9 is the top row,
/// 1 2 3 the bottom one. ``cells`` lists the marks in reading order (7, 8, 9, 4, …).
public struct ViewState: Codable, Sendable, Hashable {
    /// Nine marks in reading order, top left first: "X", "O" or "".
    public var cells: [String]
    /// Who started this game: "X" or "O".
    public var starter: String
    /// Who moves now ("X" or "O"), or `nil` once the game is over.
    public var turn: String?
    /// "playing", "x-wins", "o-wins" or "draw".
    public var outcome: String
    /// Every line the winner completed, each as three cell numbers.
    public var winningLines: [[Int]]
    /// The cell flashing amber after a refused press, by number.
    public var flashing: Int?
    public var asleep: Bool
    /// Who plays O, by ``Opponent/name``: "two-players", "computer-1" … "computer-4".
    public var opponent: String
    /// The computer plays now: its move comes after its thinking time.
    public var thinking: Bool
    /// What the players are called (`null` for no name: the mark is the name); against the
    /// computer, O is the computer whatever its name.
    public var names: Names
    /// The score of each pairing, by ``Opponent/name``, every pairing listed.
    public var scores: [String: Tally]

    public struct Names: Codable, Sendable, Hashable {
        public var x: String?
        public var o: String?

        public init(_ players: PlayerNames) {
            x = players.x
            o = players.o
        }

        /// The names as the view model has them, against `opponent`.
        public func players(facing opponent: Opponent) -> PlayerNames { PlayerNames(x: x, o: o).facing(opponent) }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(x, forKey: .x)
            try container.encode(o, forKey: .o)
        }
    }

    public struct Tally: Codable, Sendable, Hashable {
        public var xWins: Int
        public var oWins: Int
        public var draws: Int

        public init(_ score: Score) {
            xWins = score.xWins
            oWins = score.oWins
            draws = score.draws
        }

        public var score: Score { Score(xWins: xWins, oWins: oWins, draws: draws) }
    }

    public init(_ state: SessionState, players: PlayerNames) {
        let board = state.board
        cells = board.markNames
        starter = board.starter.rawValue
        turn = board.turn?.rawValue
        outcome = OutcomeName.of(board.outcome)
        winningLines = board.winningLines.map { line in line.positions.map(\.keypadKey) }
        flashing = state.flashing?.keypadKey
        asleep = state.isAsleep
        opponent = state.opponent.name
        thinking = state.awaitsComputer
        names = Names(players)
        scores = Dictionary(uniqueKeysWithValues: Opponent.allCases.map { ($0.name, Tally(state.scores[$0])) })
    }

    // Written out, not synthesized: `turn` and `flashing` are sent as null when there is none,
    // so that every state message has every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cells, forKey: .cells)
        try container.encode(starter, forKey: .starter)
        try container.encode(turn, forKey: .turn)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(winningLines, forKey: .winningLines)
        try container.encode(flashing, forKey: .flashing)
        try container.encode(asleep, forKey: .asleep)
        try container.encode(opponent, forKey: .opponent)
        try container.encode(thinking, forKey: .thinking)
        try container.encode(names, forKey: .names)
        try container.encode(scores, forKey: .scores)
    }

    /// The session this state shows, as far as it can be rebuilt: for a client that draws the
    /// board with the simulator's renderer. `nil` when the cells are not a board play reaches.
    public var session: SessionState? {
        guard let starter = Player(rawValue: starter), cells.count == 9 else { return nil }
        let marks = cells.map { Player(rawValue: $0) }
        guard let board = try? Board(starter: starter, marks: marks), let opponent = Opponent(name: opponent) else { return nil }
        var scoresByOpponent: [Opponent: Score] = [:]
        for (name, tally) in scores {
            if let pairing = Opponent(name: name) { scoresByOpponent[pairing] = tally.score }
        }
        var state = SessionState(snapshot: GameSnapshot(
            board: board, nextStarter: starter.opponent, opponent: opponent, scores: scoresByOpponent))
        state.flashing = flashing.flatMap { Position(keypadKey: $0) }
        state.isAsleep = asleep
        return state
    }

    /// The players' names as they stand against the opponent now at the board.
    public var players: PlayerNames {
        names.players(facing: Opponent(name: opponent) ?? .person)
    }
}
