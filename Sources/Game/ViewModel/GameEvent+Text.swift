import TicTacToe

extension GameEvent {
    /// The event as a sentence with player names, for logs and the terminal's message line;
    /// `players` as they stand against the opponent now at the board (``PlayerNames/facing(_:)``).
    public func text(players: PlayerNames) -> String {
        switch self {
        case .started(let starter): "New game: \(players.label(for: starter)) starts."
        case .moved(let player, let position): "\(players.label(for: player)) took \(position.name)."
        case .refused(_, let error): "Not allowed: \(error)."
        case .ignored(let position): "The game is over; \(position.name) ignored."
        case .newGameNeedsHold: "The game is not over: hold new game to abandon it."
        case .computersTurn(let position): "Wait: it is \(players.label(for: .o))'s turn; \(position.name) ignored."
        case .opponentChosen(.person, let starter): "Two players now. New game: \(players.label(for: starter)) starts."
        case .opponentChosen(.computer(let level), let starter):
            "Against the computer at \(level) now. New game: \(players.label(for: starter)) starts."
        case .opponentChosen(.learner, let starter):
            "Against the matchbox learner now: it learns from every game. New game: \(players.label(for: starter)) starts."
        case .finished(.won(let player, let lines)): "\(players.label(for: player)) wins along \(lines)!"
        case .finished(.draw): "A draw."
        case .finished(.inProgress): ""
        case .fellAsleep: "The lights went to sleep."
        case .wokeUp: "Awake again."
        }
    }
}
