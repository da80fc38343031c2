import BoardProtocol
import Reactive
import ViewModel
import TicTacToe

/// Turns the view model's events into finished games for the history: pure, no clock and no
/// I/O (it is given the time and the state with each event).
///
/// A game's record begins with its first event (a new game, a choice of opponent, another board
/// given up, or, for a
/// game carried over a restart, its first move since, with the marks already on the board
/// kept as ``PlayedGame/carriedOver``) and ends with its outcome.
public struct GameRecorder: Sendable {
    private var draft: PlayedGame?

    public init() {}

    /// Hands each game `viewModel` finishes from now on to `finished`, on the game loop (call it
    /// there: events arrive there only).
    public static func record(
        _ viewModel: GameViewModel, clock: @escaping @Sendable () -> WallTime = WallTime.now, finished: @escaping @Sendable (PlayedGame) -> Void
    ) -> any Disposable {
        let recorder = Confined(GameRecorder())
        return viewModel.events.observeValues { event in
            if let game = recorder.value.take(event, state: viewModel.state.value, names: viewModel.players, at: clock()) { finished(game) }
        }
    }

    /// Takes one event, sent when `state` had become the state after it; returns the game it
    /// finished, if it finished one.
    public mutating func take(_ event: GameEvent, state: SessionState, names: PlayerNames, at time: WallTime) -> PlayedGame? {
        switch event {
        case .started, .opponentChosen, .gaveUp:
            draft = begin(state, names: names, at: time, carriedOver: nil)
        case .moved(let player, let position):
            if draft == nil {
                var earlier = state.board.markNames
                earlier[position.index] = ""
                draft = begin(state, names: names, at: time, carriedOver: earlier.contains { !$0.isEmpty } ? earlier : nil)
            }
            draft?.moves.append(PlayedGame.Move(player: player.rawValue, cell: position.keypadKey, at: time.description))
        case .finished(let outcome):
            guard var game = draft else { return nil }
            draft = nil
            if case .inProgress = outcome { return nil }
            game.outcome = OutcomeName.of(outcome)
            game.finished = time.description
            return game
        default:
            break
        }
        return nil
    }

    private func begin(_ state: SessionState, names: PlayerNames, at time: WallTime, carriedOver: [String]?) -> PlayedGame {
        PlayedGame(
            opponent: state.opponent.name, names: ViewState.Names(names),
            starter: state.board.starter.rawValue, started: time.description, finished: "", outcome: OutcomeName.of(state.board.outcome),
            carriedOver: carriedOver, moves: [])
    }
}
