import TicTacToe

extension GameEvent {
    /// The event as a sentence with player names, for logs and the terminal's message line.
    public func text(players: PlayerNames) -> String {
        switch self {
        case .started(let starter): "New game: \(players.label(for: starter)) starts."
        case .moved(let player, let position): "\(players.label(for: player)) took \(position)."
        case .refused(let position, let error): "Not allowed at \(position): \(error)."
        case .ignored(let position): "The game is over; \(position) ignored."
        case .newGameNeedsHold: "The game is not over: hold new game to abandon it."
        case .finished(.won(let player, let lines)): "\(players.label(for: player)) wins along \(lines)!"
        case .finished(.draw): "A draw."
        case .finished(.inProgress): ""
        case .fellAsleep: "The lights went to sleep."
        case .wokeUp: "Awake again."
        }
    }
}
