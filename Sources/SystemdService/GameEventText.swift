import Presentation

/// Game events as log lines, with player names.
public enum GameEventText {
    public static func describe(_ event: GameEvent, players: PlayerNames) -> String {
        switch event {
        case .started(let starter): "new game: \(players.label(for: starter)) starts"
        case .moved(let player, let position): "\(players.label(for: player)) took \(position)"
        case .refused(let position, let error): "refused \(position): \(error)"
        case .ignored(let position): "ignored \(position): the game is over"
        case .finished(.won(let player, let line)): "\(players.label(for: player)) wins along the \(line)"
        case .finished(.draw): "a draw"
        case .finished(.inProgress): "game in progress"
        case .fellAsleep: "lights asleep after the idle time"
        case .wokeUp: "lights awake"
        }
    }
}
