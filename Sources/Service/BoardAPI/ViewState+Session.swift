import BoardProtocol
import ViewModel
import TicTacToe

extension ViewState {
    /// What the board shows in `state`, as its API sends it: a pure function of the session and
    /// how the board shows marks. `learnerDigest`: the learner's ``MatchboxLearner/digest``,
    /// given by a caller that keeps it (it costs a pass over every box), else worked out here.
    public init(_ state: SessionState, players: PlayerNames, marks: MarkStyle, learnerDigest: String? = nil) {
        let board = state.board, appearance = Appearance(state)
        self.init(
            cells: board.markNames, starter: board.starter.rawValue, turn: board.turn?.rawValue,
            outcome: OutcomeName.of(board.outcome),
            winningLines: board.winningLines.map { line in line.positions.map(\.keypadKey) },
            flashing: state.flashing?.keypadKey, asleep: state.isAsleep, opponent: state.opponent.name,
            thinking: state.awaitsComputer, names: Names(players),
            scores: Dictionary(uniqueKeysWithValues: Self.pairings(of: state).map { ($0.name, Tally(state.score(against: $0))) }),
            looks: appearance.cells.map(\.name), headline: appearance.headline.name,
            marks: marks.rawValue, learner: Learner(state, digest: learnerDigest ?? state.learner.digest),
            lesson: state.lesson.map(Lesson.init), otherBoard: OtherBoard(state),
            boardsSeen: state.seenBoards.map { SeenReport.Board(board: $0.name, invites: $0.invites) })
    }

    /// Every pairing the state lists: the board's own, each other board played, and the one now
    /// at the board.
    private static func pairings(of state: SessionState) -> [Opponent] {
        var boards = Set(state.playedScores.keys.filter { $0.remote != nil })
        if state.opponent.remote != nil { boards.insert(state.opponent) }
        return Opponent.allCases + boards
    }

    /// The session this state shows, as far as it can be rebuilt: to hold what a client was sent
    /// to what the LEDs showed (a view draws the `looks` and `headline` instead, as `watch` does).
    /// `nil` when the cells are not a board play reaches.
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
        state.showsOpponent = headline == Headline.choosingOpponent(opponent).name
        return state
    }

    /// How the board shows marks: the one it names, else (a board that does not say) the standard.
    public var markStyle: MarkStyle {
        marks.flatMap(MarkStyle.init(rawValue:)) ?? .standard
    }

    /// The players' names as they stand against the opponent now at the board.
    public var players: PlayerNames {
        names.players(facing: Opponent(name: opponent) ?? .person)
    }
}

extension ViewState.Learner {
    /// The session's learner as the API shows it: its box only when it is to move, its last
    /// ``tensShown`` tens of games, and its latest games added up.
    public init(_ state: SessionState, digest: String) {
        let learner = state.learner, total = learner.record.total, latest = learner.record.latest
        let toMove = state.opponent == .learner && state.board.turn == .o
        self.init(
            games: learner.record.games, won: total.won, drew: total.drew, lost: total.lost, boxes: learner.boxes.count,
            box: toMove ? learner.beads(on: state.board) : nil,
            tens: learner.record.tens.suffix(Self.tensShown).map { [$0.won, $0.drew, $0.lost] },
            latest: [latest.won, latest.drew, latest.lost], resets: learner.resets, digest: digest)
    }
}

extension ViewState.OtherBoard {
    /// The game with another board, when one plays.
    public init?(_ state: SessionState) {
        guard let other = state.opponent.remote else { return nil }
        self.init(
            board: other.name, mark: other.side.rawValue, game: state.remote.game, here: state.remote.isHere,
            moves: state.moves.map { $0.map(\.keypadKey) } ?? [], previous: state.previousRemoteMoves?.map(\.keypadKey))
    }
}

extension ViewState.Lesson {
    public init(_ lesson: ViewModel.Lesson) {
        self.init(
            games: lesson.games, level: lesson.against.rawValue, played: lesson.played, won: lesson.results.won, drew: lesson.results.drew,
            lost: lesson.results.lost, end: lesson.end?.rawValue)
    }
}

extension ViewState.Names {
    public init(_ players: PlayerNames) {
        self.init(x: players.x, o: players.o)
    }

    /// The names as the view model has them, against `opponent`.
    public func players(facing opponent: Opponent) -> PlayerNames { PlayerNames(x: x, o: o).facing(opponent) }
}

extension ViewState.Tally {
    public init(_ score: Score) {
        self.init(xWins: score.xWins, oWins: score.oWins, draws: score.draws)
    }

    public var score: Score { Score(xWins: xWins, oWins: oWins, draws: draws) }
}
