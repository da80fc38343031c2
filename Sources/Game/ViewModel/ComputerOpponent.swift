import Matchboxes
import Reactive
import TicTacToe

/// The computer at the board, as a hand on the buttons: it watches the session and, when the
/// computer is to move, "thinks" for ``GameTimings/computerThinking`` and then presses a cell.
///
/// ## Contract
/// - Confined to the game's scheduler, like the view model that owns it: it observes the
///   session's state there and its think timer runs there.
/// - ``moves`` sends one position per computer turn, chosen at the session's level (or drawn
///   from the learner's box) for the board as it is when the thinking ends; the view model hands it to the session's `press`,
///   the way the button pad's positions go in. A turn that ends before (a new game, sleep, another opponent) cancels the
///   thinking; a new board starts it again from the full delay.
/// - Deterministic under a seeded random source.
final class ComputerOpponent: @unchecked Sendable {
    let moves: Signal<Position>

    private let movesInput: Signal<Position>.Input
    private let scheduler: any Scheduler
    private let thinking: Duration
    private var player: ComputerPlayer<SeededRandom>
    /// The learner's draws: a source of their own, so that the learner's games do not shift the
    /// levels' choices.
    private var learnerRandom: SeededRandom
    /// It holds the opponent weakly (as the session's timers do, for the same reason), and the
    /// opponent invalidates it when it goes.
    private lazy var timer = timers.make { [weak self] in self?.decide() }
    private let timers: LoopTimers
    /// The board the timer is thinking about, and the learner as it stood then (when it plays).
    private var pondered: Board?
    private var learner: MatchboxLearner?

    init(thinking: Duration, scheduler: any Scheduler, random: SeededRandom) {
        self.thinking = thinking
        self.scheduler = scheduler
        timers = LoopTimers(on: scheduler)
        var random = random
        learnerRandom = SeededRandom(seed: random.next())
        player = ComputerPlayer(level: .perfect, random: random)
        (moves, movesInput) = Signal<Position>.pipe(confinedTo: scheduler)
    }

    deinit { timers.invalidateAll() }

    /// Follows the session: thinks while the computer is to move, and only then.
    func follow(_ state: SessionState) {
        guard state.awaitsComputer else {
            stopThinking()
            return
        }
        guard pondered != state.board else { return }
        stopThinking()
        pondered = state.board
        if let level = state.opponent.level { player.level = level }
        learner = state.opponent == .learner ? state.learner : nil
        timer.set(after: thinking)
    }

    private func decide() {
        guard let board = pondered,
              let move = learner.map({ $0.move(on: board, using: &learnerRandom) }) ?? player.move(on: board) else { return }
        pondered = nil
        learner = nil
        movesInput.send(move)
    }

    private func stopThinking() {
        // Set only while a board is pondered: a state that asks nothing of the computer (most
        // of them) touches no timer.
        if pondered != nil { timer.cancel() }
        pondered = nil
        learner = nil
    }
}
