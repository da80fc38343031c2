import TicTacToe

extension GameEvent {
    /// The event as a sentence with player names, for logs and the terminal's message line.
    public func text(players: PlayerNames) -> String {
        switch self {
        case .started(let starter): "New game: \(players.label(for: starter)) starts."
        case .moved(let player, let position): "\(players.label(for: player)) took \(position)."
        case .refused(let position, let error): "Not allowed at \(position): \(error)."
        case .ignored(let position): "The game is over; \(position) ignored."
        case .finished(.won(let player, let line)): "\(players.label(for: player)) wins along the \(line)!"
        case .finished(.draw): "A draw."
        case .finished(.inProgress): ""
        case .fellAsleep: "The lights went to sleep."
        case .wokeUp: "Awake again."
        }
    }
}
