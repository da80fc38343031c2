import Lights
import Reactive
import TicTacToe

/// The game as the board's lights present it: MVVM's view model, testable without any GPIO.
///
/// Inputs: signals of pressed cells (the buttons', and remote ones from the board's API), three
/// actions for the new-game button: ``newGame`` (a short press), ``startOver`` (a hold) and
/// ``nextOpponent`` (held while a cell is tapped), and ``chooseOpponent`` for the API.
/// Outputs: properties for everything the board shows, ending in ``frame``, and ``frames``,
/// which the LED devices are bound to with `<~`. Against the computer, a ``ComputerOpponent``
/// inside presses O's cells: its positions enter the session's one `press`, as the buttons' do.
///
/// ## Contract
/// - **Pushed only what is watched.** ``state`` is kept up to date on every input; every other
///   output is derived from ``state`` when asked for: reading its value costs one derivation,
///   and it costs nothing per input unless someone holds or observes it. Each access makes a
///   new derived property; hold one to share its derivation among several observers. The
///   LEDs follow ``frames``, rendered on each change and stored nowhere in between.
/// - Confined to the game's scheduler: inputs must arrive there (the button pad delivers on it),
///   and the view model's timers run there; outputs change there, in input order. ``state``
///   and everything derived from it are loop-confined properties (see
///   ``MutableProperty/init(_:confinedTo:)``): they change without a lock, and observers may
///   still come and go, and read them, from any thread.
/// - A free cell takes the mover's mark; an occupied cell flickers amber for
///   ``GameTimings/illegalFlash`` and changes nothing; a press after the game ended is ignored.
/// - A win blinks every line the winning mark completed and the winner's status LED; a draw
///   blinks every cell and both status LEDs; the blink runs until the next game, and pauses
///   while the lights sleep (no timer runs on a dark board).
/// - One input, one change: each press, action or timer changes ``state`` once, so ``frame``
///   sends at most one new frame and ``snapshot`` at most one new snapshot per input.
/// - ``newGame`` is enabled once the game is over (or while asleep, where it only wakes the
///   board); ``startOver`` is always enabled, so a mid-game restart takes the deliberate hold.
///   Each new game is started by the player who did not start the previous one.
/// - After ``GameTimings/idleSleep`` without a press of any button (a refused one counts), the
///   lights go dark; the next press of any button only wakes them.
/// - Against another board: its moves arrive through ``hear(_:)``; a person's press in its turn,
///   or while it is not heard, flickers amber and changes nothing, and while it is not heard its
///   status LED blinks over steady marks (``SessionState/awaitsOtherBoard``). Not heard for
///   ``GameTimings/otherBoardWait`` on end, the board gives the game up and plays two players
///   (a dark board stays dark: its next press wakes it to the new game).
/// - Against the computer (it plays O): ``GameTimings/computerThinking`` after O's turn comes,
///   its move arrives like a press; a person's press in its turn flickers amber and changes
///   nothing. ``nextOpponent`` steps through ``SessionState/opponentChoices``, starts a new game, shows
///   the choice on the matrix for ``GameTimings/opponentShown``; each pairing keeps its score.
public final class GameViewModel: Sendable {
    // MARK: Outputs
    /// The whole session: every output below is derived from this one value, which each input
    /// changes exactly once, so no output ever shows an intermediate state.
    public let state: Property<SessionState>
    /// Everything the lights show.
    public var frame: Property<Frame> { state.map { [marks] in FrameRenderer.frame(of: $0, marks: marks) }.skipRepeats() }
    /// What the LEDs are bound to: on start the frame showing now, then the frame of each new
    /// state (equal to the last when the change does not show: the LEDs skip those). A recipe,
    /// stored: starting it renders, holding it costs nothing.
    // Stored, not computed [6.0.3: optimiser-crash]: a getter's body, inlined into the board's module, made Swift 6.0.3's
    // optimiser crash deserialising the state lock's specialisation (make deb).
    public let frames: SignalProducer<Frame>
    public var board: Property<Board> { state.map(\.board).skipRepeats() }
    /// Who moves now, or `nil` once the game is over.
    public var turn: Property<Player?> { state.map(\.board.turn).skipRepeats() }
    public var winner: Property<Player?> { state.map(\.board.winner).skipRepeats() }
    /// Every line the winner completed (one, or two closed by one mark); empty otherwise.
    public var winningLines: Property<WinningLines> { state.map(\.board.winningLines).skipRepeats() }
    public var isDraw: Property<Bool> { state.map(\.board.isDraw).skipRepeats() }
    public var isOver: Property<Bool> { state.map(\.board.isOver).skipRepeats() }
    /// Whether a cell press can still place a mark.
    public var canMakeMove: Property<Bool> { state.map(\.board.canMakeMove).skipRepeats() }
    public var score: Property<Score> { state.map(\.score).skipRepeats() }
    public var isAsleep: Property<Bool> { state.map(\.isAsleep).skipRepeats() }
    /// The cell flickering amber after a refused press, if any.
    public var flashingCell: Property<Position?> { state.map(\.flashing).skipRepeats() }
    public let players: PlayerNames
    /// How the frames tell X's marks from O's.
    public let marks: MarkStyle
    /// ``players`` as they stand against the opponent now at the board ("Computer (O)" when it
    /// plays): for an event's text, read when the event arrives.
    public var names: PlayerNames { players.facing(state.value.opponent) }
    /// What happened, as it happens, sent after the state has changed.
    public let events: Signal<GameEvent>
    /// What to save to survive a restart: the game, the next starter, the score.
    public var snapshot: Property<GameSnapshot> { state.map(\.snapshot).skipRepeats() }

    // MARK: Inputs
    /// A short press of new game: starts a new game once this one is over. Refused mid-game,
    /// where it still counts as activity (the idle countdown starts again).
    public let newGame: Action<Void, Void>
    /// A held new game: abandons the game in progress and starts a new one.
    public let startOver: Action<Void, Void>
    /// The opponent gesture: the next opponent plays O from a new game on.
    public let nextOpponent: Action<Void, Void>
    /// A named opponent plays O from a new game on, shown as the gesture shows it.
    public let chooseOpponent: Action<Opponent, Void>

    /// The board's API asks for a fresh learner (``SessionState/resetLearner(ifGames:resets:)``);
    /// call on the game's scheduler. The state changes once when it is done, not at all otherwise.
    public func resetLearner(ifGames expected: Int?, resets expectedResets: Int? = nil) -> LearnerReset {
        session.resetLearner(ifGames: expected, resets: expectedResets)
    }

    /// The board's API asks for a lesson (``Lesson``): `games` games against the computer at
    /// `level`, played a step at a time from now on; call on the game's scheduler. The state
    /// shows the lesson at once, and each step's progress.
    public func teach(games: Int, against level: ComputerLevel) -> LessonStart { session.teach(games: games, against: level) }

    /// Ends the lesson under way, keeping what it taught; `false` when none was.
    public func stopLesson() -> Bool { session.stopLesson() }

    /// What the network says of another board (``SessionState/hear(_:)``); call on the game's
    /// scheduler. Against that board, it says whether it is here and the moves it made.
    public func hear(_ report: PeerReport) { session.hear(report) }

    /// The boards the network link sees online (``SessionState/see(_:)``).
    public func see(_ boards: [SeenBoard]) { session.see(boards) }

    private let session: GameSession
    private let computer: ComputerOpponent
    private let observations: CompositeDisposable

    /// - Parameters:
    ///   - positions: pressed cells (the button pad's positions).
    ///   - remotePositions: cells pressed through the board's API: each enters the game as a
    ///     button's press does, and is refused the same way.
    ///   - scheduler: runs the flash, blink, idle and thinking timers.
    ///   - firstStarter: who starts the first game.
    ///   - opponent: who plays O.
    ///   - marks: how the frames tell X's marks from O's.
    ///   - random: the computer's source of chance; seed it to replay a game.
    public convenience init(
        positions: Signal<Position>, remotePositions: Signal<Position> = .never, timings: GameTimings = GameTimings(), scheduler: any Scheduler,
        firstStarter: Player = .x, opponent: Opponent = .person, players: PlayerNames = PlayerNames(), marks: MarkStyle = .standard,
        random: SeededRandom = SeededRandom()
    ) {
        self.init(
            positions: positions, remotePositions: remotePositions,
            restoring: GameSnapshot(board: Board(starter: firstStarter), nextStarter: firstStarter.opponent, opponent: opponent),
            timings: timings, scheduler: scheduler, players: players, marks: marks, random: random)
    }

    /// A view model that carries on from `snapshot`: the game in progress (blinking at once if
    /// it had ended), the next starter and the score.
    public init(
        positions: Signal<Position>, remotePositions: Signal<Position> = .never, restoring snapshot: GameSnapshot, timings: GameTimings = GameTimings(),
        scheduler: any Scheduler, players: PlayerNames = PlayerNames(), marks: MarkStyle = .standard, random: SeededRandom = SeededRandom()
    ) {
        let session = GameSession(snapshot: snapshot, timings: timings, scheduler: scheduler, random: random)
        self.session = session
        let computer = ComputerOpponent(thinking: timings.computerThinking, scheduler: scheduler, random: random)
        self.computer = computer
        self.players = players
        self.marks = marks
        events = session.events

        state = Property(session.state)
        frames = state.producer.map { FrameRenderer.frame(of: $0, marks: marks) }

        // A closure, not a key path: it runs on every input, and the runtime projects key paths.
        newGame = Action(enabledIf: state.map { $0.acceptsNewGame }.skipRepeats()) { session.requestNewGame() }
        startOver = Action { session.requestNewGame() }
        nextOpponent = Action { session.chooseNextOpponent() }
        chooseOpponent = Action { session.choose($0) }
        observations = CompositeDisposable()
        // One way in for every cell press: the buttons', the remote ones and the computer's all
        // call the session's press. The session does not hold these signals, so the strong
        // captures make no cycle; deinit ends them.
        observations += positions.observeValues { [session] in session.press(.person($0)) }
        observations += remotePositions.observeValues { [session] in session.press(.person($0)) }
        observations += computer.moves.observeValues { [session] in session.press(.computer($0)) }
        observations += state.producer.startWithValues { [computer] in computer.follow($0) }
        observations += newGame.disabledAttempts.observeValues { [weak session] _ in
            session?.noteActivity()
            session?.refuseShortNewGame()
        }
    }

    deinit { observations.dispose() }
}
