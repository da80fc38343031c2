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
        case .othersTurn(let position): "Wait: it is \(players.label(for: players.othersSide ?? .o))'s turn; \(position.name) ignored."
        case .pressWhileWaiting(let position): "Waiting for \(players.otherBoardLabel) to play; \(position.name) ignored."
        case .waitingForBoard: "Waiting for \(players.otherBoardLabel): the game stays as it is until it is heard; choose another opponent to give it up."
        case .otherBoardAway(let name): "The board \(name) is not heard: waiting for it."
        case .otherBoardHere(let name): "The board \(name) is here."
        case .invited(let name):
            "The board \(name) invites this board to a game: choose board:\(name):x to join (the opponent gesture offers it after the learner)."
        case .gaveUp(let name, let wait, let starter):
            "The board \(name) was not heard for \(wait.wordsInMinutes): the game with it is given up. Two players now. New game: \(players.label(for: starter)) starts."
        case .opponentChosen(.person, let starter): "Two players now. New game: \(players.label(for: starter)) starts."
        case .opponentChosen(.computer(let level), let starter):
            "Against the computer at \(level) now. New game: \(players.label(for: starter)) starts."
        case .opponentChosen(.learner, let starter):
            "Against the matchbox learner now: it learns from every game. New game: \(players.label(for: starter)) starts."
        case .opponentChosen(.board(let remote), _) where remote.side == .x:
            "Joining the board \(remote.name)'s game: this board plays \(remote.side.opponent)."
        case .opponentChosen(.board(let remote), let starter):
            "Against the board \(remote.name) now: this board plays \(remote.side.opponent). New game: \(players.label(for: starter)) starts."
        case .finished(.won(let player, let lines)): "\(players.label(for: player)) wins along \(lines)!"
        case .finished(.draw): "A draw."
        case .finished(.inProgress): ""
        case .fellAsleep: "The lights went to sleep."
        case .wokeUp: "Awake again."
        }
    }
}
