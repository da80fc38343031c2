import Lights
import Reactive
import TicTacToe

/// The game as the board's lights present it: MVVM's view model, testable without any GPIO.
///
/// Inputs: a signal of pressed cells, and two actions for the new-game button: ``newGame``
/// (a short press) and ``startOver`` (a hold). Outputs: properties for everything the board
/// shows, ending in ``frame``, which the LED devices are bound to with `<~`.
///
/// ## Contract
/// - Inputs are handled on the thread they arrive on, in order; in the app that is the game's
///   scheduler, which also runs this view model's timers.
/// - A free cell takes the mover's mark; an occupied cell flashes amber for
///   ``GameTimings/illegalFlash`` and changes nothing; a press after the game ended is ignored.
/// - A win blinks the winning line and the winner's status LED; a draw blinks every cell and
///   both status LEDs; the blink runs until the next game.
/// - ``newGame`` is enabled once the game is over (or while asleep, where it only wakes the
///   board); ``startOver`` is always enabled, so a mid-game restart takes the deliberate hold.
///   Each new game is started by the player who did not start the previous one.
/// - After ``GameTimings/idleSleep`` without input, the lights go dark; the next press of any
///   button only wakes them.
public final class GameViewModel: Sendable {
    // MARK: Outputs
    public let board: Property<Board>
    /// Who moves now, or `nil` once the game is over.
    public let turn: Property<Player?>
    public let winner: Property<Player?>
    public let winningLine: Property<WinningLine?>
    public let isDraw: Property<Bool>
    public let isOver: Property<Bool>
    /// Whether a cell press can still place a mark.
    public let canMakeMove: Property<Bool>
    public let score: Property<Score>
    public let isAsleep: Property<Bool>
    /// The occupied cell flashing amber after an illegal press, if any.
    public let flashingCell: Property<Position?>
    /// Everything the lights show.
    public let frame: Property<Frame>
    public let players: PlayerNames
    /// What happened, as it happens.
    public let events: Signal<GameEvent>
    /// What to save to survive a restart: the game, the next starter, the score.
    public let snapshot: Property<GameSnapshot>

    // MARK: Inputs
    /// A short press of new game: starts a new game once this one is over.
    public let newGame: Action<Void, Void>
    /// A held new game: abandons the game in progress and starts a new one.
    public let startOver: Action<Void, Void>

    private let session: GameSession
    private let positionsObservation: any Disposable

    /// - Parameters:
    ///   - positions: pressed cells (the button pad's merged signal).
    ///   - scheduler: runs the flash, blink and idle timers.
    ///   - firstStarter: who starts the first game.
    public convenience init(
        positions: Signal<Position>, timings: GameTimings = GameTimings(), scheduler: any Scheduler,
        firstStarter: Player = .x, players: PlayerNames = PlayerNames()
    ) {
        self.init(
            positions: positions, restoring: GameSnapshot(board: Board(starter: firstStarter), nextStarter: firstStarter.opponent),
            timings: timings, scheduler: scheduler, players: players)
    }

    /// A view model that carries on from `snapshot`: the game in progress (blinking at once if
    /// it had ended), the next starter and the score.
    public init(
        positions: Signal<Position>, restoring snapshot: GameSnapshot, timings: GameTimings = GameTimings(),
        scheduler: any Scheduler, players: PlayerNames = PlayerNames()
    ) {
        let session = GameSession(snapshot: snapshot, timings: timings, scheduler: scheduler)
        self.session = session
        self.players = players
        events = session.events

        board = Property(session.game)
        turn = board.map(\.turn)
        winner = board.map(\.winner)
        winningLine = board.map(\.winningLine)
        isDraw = board.map(\.isDraw)
        isOver = board.map(\.isOver)
        canMakeMove = board.map(\.canMakeMove)
        score = Property(session.scores)
        isAsleep = Property(session.asleep)
        flashingCell = Property(session.flash)
        frame = Property.combineLatest(session.game, session.flash, session.blinkOn, session.asleep)
            .map { FrameRenderer.frame(board: $0, flashing: $1, blinkOn: $2, asleep: $3) }
            .skipRepeats()

        self.snapshot = Property.combineLatest(session.game, session.nextStarter, session.scores)
            .map { GameSnapshot(board: $0, nextStarter: $1, score: $2) }
        let overOrAsleep = Property.combineLatest(isOver, isAsleep).map { $0 || $1 }
        newGame = Action(enabledIf: overOrAsleep) { session.requestNewGame() }
        startOver = Action { session.requestNewGame() }
        positionsObservation = positions.observeValues { [weak session] in session?.press($0) }
    }

    deinit { positionsObservation.dispose() }
}
