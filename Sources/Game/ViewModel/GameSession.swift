import Basics
import Reactive
import TicTacToe

/// The view model's engine: the session state, one `modify` per input, and the timers that
/// animate it (a refused press's flicker, end-of-game blink, the shown choice of opponent, idle sleep).
///
/// Confined to the game's scheduler: every input and every timer runs there (the contract of
/// ``GameViewModel``), so its timer fields need no lock, and its state is a loop-confined
/// property. What the timers follow is read inside each change (``TimedFacts``): reading the
/// state again afterwards would copy all of it.
final class GameSession: @unchecked Sendable {
    let state: MutableProperty<SessionState>
    let events: Signal<GameEvent>

    private let eventInput: Signal<GameEvent>.Input
    private let scheduler: any Scheduler
    private let timings: GameTimings
    // Made at first use, then set and cancelled without allocating (``LoopTimer``). Each holds
    // the session weakly: its last reference may go on another thread (the service's stop)
    // while the loop runs one of them, which an `unowned` one would read destroyed. The session
    // invalidates the ones it made when it goes.
    private lazy var flashTimer = timers.make { [weak self] in
        self?.cancelFlash()
        self?.state.modify { $0.endFlash() }
    }
    private lazy var flickerTimer = timers.make { [weak self] in self?.state.modify { $0.toggleFlash() } }
    private lazy var blinkTimer = timers.make { [weak self] in self?.state.modify { $0.toggleBlink() } }
    /// The board the blink timer runs for.
    private var blinkingBoard: Board?
    private lazy var idleTimer = timers.make { [weak self] in self?.idleTimerFired() }
    private lazy var showTimer = timers.make { [weak self] in self?.showTimerFired() }
    private lazy var lessonTimer = timers.make { [weak self] in self?.lessonStep() }
    private lazy var waitTimer = timers.make { [weak self] in self?.waitTimerFired() }
    /// Whether the wait timer runs: exactly while the board waits for another board, from the
    /// moment it began to (compared on every change, the timer touched only when it flips).
    private var waitsForBoard = false
    /// The lesson's computer and the learner's draws in it: sources of their own, so that a
    /// lesson shifts no choice at the board.
    private var lessonComputer: ComputerPlayer<SeededRandom>
    private var lessonRandom: SeededRandom
    private let timers: LoopTimers
    /// The last press of any button. The idle timer is not restarted on every press (that would
    /// cost a timer per press); when it fires early it checks this and waits the rest.
    private var lastActivity: MonotonicInstant

    init(snapshot: GameSnapshot, timings: GameTimings, scheduler: any Scheduler, random: SeededRandom = SeededRandom()) {
        state = MutableProperty(SessionState(snapshot: snapshot), confinedTo: scheduler)
        var random = random
        lessonComputer = ComputerPlayer(level: .perfect, random: SeededRandom(seed: random.next() ^ 0x6C65_7373_6F6E))
        lessonRandom = SeededRandom(seed: random.next() ^ 0x6C65_7373_6F6E)
        self.timings = timings
        self.scheduler = scheduler
        timers = LoopTimers(on: scheduler)
        lastActivity = scheduler.now
        (events, eventInput) = Signal<GameEvent>.pipe(confinedTo: scheduler)
        armIdleTimer()
        let facts = TimedFacts(state.value)
        followBlink(facts)
        followWait(facts)
    }

    deinit { timers.invalidateAll() }

    /// A cell was pressed, by a person or by the computer.
    func press(_ press: CellPress) {
        if case .person = press { noteActivity() }
        let (event, facts, wasFlashing) = state.modify { state in
            let wasFlashing = state.flashing
            return (state.press(press), TimedFacts(state), wasFlashing)
        }
        switch event {
        case .refused(let position, _), .othersTurn(let position), .pressWhileWaiting(let position):
            startFlash(again: position == wasFlashing)
            // A press during the choice of opponent ends it: the game shows, with the learner's
            // box blinking if it is to start.
            followState(facts)
        case .moved, .wokeUp:
            cancelFlash()
            followState(facts)
        default:
            break
        }
        eventInput.send(event)
        if case .moved = event, let outcome = facts.finished {
            eventInput.send(.finished(outcome))
        }
    }

    /// The board heard from another board (``SessionState/hear(_:)``): one change of state, and
    /// what happened in it told in order. Anything it tells (a move, a game, the other board away
    /// or back) counts as someone at the board, for the lights to show it.
    func hear(_ report: PeerReport) {
        let (events, facts) = state.modify { state in (state.hear(report), TimedFacts(state)) }
        guard !events.isEmpty else { return }
        noteActivity()
        // A move clears a refused press's flicker (``SessionState/took(_:by:)``); else it runs on.
        if events.contains(where: { if case .moved = $0 { true } else if case .started = $0 { true } else { false } }) { cancelFlash() }
        followState(facts)
        for event in events { eventInput.send(event) }
    }

    /// The link sees these boards online: an invitation among them is told, but is no press (the
    /// lights stay as they are: nobody may be at the board).
    func see(_ boards: [SeenBoard]) {
        let event = state.modify { $0.see(boards) }
        if let event { eventInput.send(event) }
    }

    /// The new-game button asked for a new game (a short press once over, or a hold).
    func requestNewGame() { begin { $0.startNewGame() } }

    /// The opponent gesture: the next opponent, a new game, and the choice shown for a moment.
    func chooseNextOpponent() { begin { $0.chooseNextOpponent() } }

    /// An opponent named by the board's API: as the gesture, but that one.
    func choose(_ opponent: Opponent) { begin { $0.choose(opponent) } }

    /// The board's API asked for a fresh learner: one change of state, or none when refused.
    /// Not a press: it neither wakes the lights nor counts as someone at the board.
    func resetLearner(ifGames expected: Int?, resets expectedResets: Int?) -> LearnerReset {
        // Tried on a copy first: a refusal must not announce a state (confined: nothing changes between).
        var trial = state.value
        let outcome = trial.resetLearner(ifGames: expected, resets: expectedResets)
        if outcome == .done { state.modify { $0.learner = trial.learner } }
        return outcome
    }

    /// The board's API asked for a lesson: the first step after ``Lesson/pace``, one change of
    /// state now (the lesson shown), none when refused.
    func teach(games: Int, against level: ComputerLevel) -> LessonStart {
        var trial = state.value
        let outcome = trial.beginLesson(games: games, against: level)
        guard outcome == .started else { return outcome }
        state.modify { $0.lesson = trial.lesson }
        lessonTimer.set(after: Lesson.pace)
        return outcome
    }

    /// Ends the lesson under way, if one is; `false` when none was.
    func stopLesson() -> Bool {
        guard state.value.teaching else { return false }
        lessonTimer.cancel()
        return state.modify { $0.stopLesson() }
    }

    private func lessonStep() {
        let goesOn = state.modify { $0.teachStep(against: &lessonComputer, using: &lessonRandom) }
        if goesOn { lessonTimer.set(after: Lesson.pace) }
    }

    private func begin(_ change: (inout SessionState) -> GameEvent) {
        noteActivity()
        let (event, facts) = state.modify { state in (change(&state), TimedFacts(state)) }
        cancelFlash()
        if case .opponentChosen = event {
            // Each choice is shown in full, however soon after the last; and another board chosen
            // (again) is waited for the whole wait, from now.
            showTimer.cancel()
            waitTimer.cancel()
            waitsForBoard = false
        }
        followState(facts)
        eventInput.send(event)
    }

    /// A short press of new game mid-game: nothing changes but the message.
    func refuseShortNewGame() {
        eventInput.send(.newGameNeedsHold)
    }

    /// A press that changes nothing (new game mid-game) still counts as someone at the board.
    func noteActivity() {
        lastActivity = scheduler.now
        if !idleTimer.isSet { armIdleTimer() }
    }

    /// The refused press's flicker: on and off every half period, then over after the flash.
    /// The end is scheduled first: where it falls on a flicker step, it runs first and cancels
    /// that step, so the flash ends in one change. The same cell refused `again` mid-flash keeps
    /// its flicker going, in phase, and only its end moves (should that end fall on a step, the
    /// step and the end are two changes at one instant).
    private func startFlash(again: Bool) {
        let flickering = again && flickerTimer.isSet
        flashTimer.cancel()
        if !flickering { flickerTimer.cancel() }
        flashTimer.set(after: timings.illegalFlash)
        if !flickering { flickerTimer.set(every: timings.flickerHalfPeriod) }
    }

    private func cancelFlash() {
        flashTimer.cancel()
        flickerTimer.cancel()
    }

    /// Starts or stops the state's timers to match it: a dark board has none running (but the
    /// wait for another board, which gives up even with nobody at the board).
    private func followState(_ facts: TimedFacts) {
        followBlink(facts)
        followWait(facts)
        if facts.showsOpponent {
            guard !showTimer.isSet else { return }
            showTimer.set(after: timings.opponentShown)
        } else {
            showTimer.cancel()
        }
    }

    private func showTimerFired() {
        // The game shows now: against the learner to move, its box (the blink).
        let facts = state.modify { state in
            state.endShowingOpponent()
            return TimedFacts(state)
        }
        followBlink(facts)
    }

    /// Starts or stops the blink timer to match the state: it runs exactly while the blink does
    /// (``SessionState/isBlinking``), from its bright phase for each board it blinks on (the
    /// learner's box, then the game it ends with its move).
    private func followBlink(_ facts: TimedFacts) {
        if facts.isBlinking {
            guard !blinkTimer.isSet || blinkingBoard != facts.board else { return }
            blinkingBoard = facts.board
            blinkTimer.set(every: timings.blinkHalfPeriod)
        } else {
            blinkTimer.cancel()
            blinkingBoard = nil
        }
    }

    private func followWait(_ facts: TimedFacts) {
        guard facts.awaitsOtherBoard != waitsForBoard else { return }
        waitsForBoard = facts.awaitsOtherBoard
        if waitsForBoard {
            waitTimer.set(after: timings.otherBoardWait)
        } else {
            waitTimer.cancel()
        }
    }

    private func waitTimerFired() {
        let (event, facts) = state.modify { state in (state.giveUpWaiting(after: timings.otherBoardWait), TimedFacts(state)) }
        waitsForBoard = false
        followState(facts)
        if let event { eventInput.send(event) }
    }

    private func armIdleTimer() {
        idleTimer.set(at: lastActivity + timings.idleSleep)
    }

    private func idleTimerFired() {
        guard scheduler.now >= lastActivity + timings.idleSleep else {
            armIdleTimer()
            return
        }
        let (fellAsleep, facts) = state.modify { state in (state.fallAsleep(), TimedFacts(state)) }
        guard fellAsleep else { return }
        cancelFlash()
        followState(facts)
        eventInput.send(.fellAsleep)
    }
}

/// What the session's timers follow in a state: taken inside the change that made it.
private struct TimedFacts {
    var isBlinking: Bool
    var board: Board
    var showsOpponent: Bool
    var awaitsOtherBoard: Bool
    /// How the game ended, once it has.
    var finished: Outcome?

    init(_ state: SessionState) {
        isBlinking = state.isBlinking
        board = state.board
        showsOpponent = state.showsOpponent
        awaitsOtherBoard = state.awaitsOtherBoard
        finished = state.board.isOver ? state.board.outcome : nil
    }
}
