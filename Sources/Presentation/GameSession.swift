import Reactive
import TicTacToe

/// The view model's mutable core: the state its properties are derived from, the timers that
/// animate it, and what each input does to it. Runs on the caller's thread (the scheduler's).
final class GameSession: Sendable {
    let game: MutableProperty<Board>
    let scores: MutableProperty<Score>
    let nextStarter: MutableProperty<Player>
    let flash = MutableProperty<Position?>(nil)
    let blinkOn = MutableProperty(true)
    let asleep = MutableProperty(false)
    let events: Signal<GameEvent>

    private let eventInput: Signal<GameEvent>.Input
    private let flashTimer = SerialDisposable()
    private let blinkTimer = SerialDisposable()
    private let idleTimer = SerialDisposable()
    private let scheduler: any Scheduler
    private let timings: GameTimings

    init(snapshot: GameSnapshot, timings: GameTimings, scheduler: any Scheduler) {
        game = MutableProperty(snapshot.board)
        scores = MutableProperty(snapshot.score)
        nextStarter = MutableProperty(snapshot.nextStarter)
        self.timings = timings
        self.scheduler = scheduler
        (events, eventInput) = Signal<GameEvent>.pipe()
        restartIdleCountdown()
        if snapshot.board.isOver { startBlinking() }
    }

    deinit {
        flashTimer.dispose()
        blinkTimer.dispose()
        idleTimer.dispose()
    }

    /// A cell was pressed.
    func press(_ position: Position) {
        guard wake() else { return }
        let board = game.value
        do {
            let next = try board.playing(position)
            flashTimer.inner = nil
            flash.value = nil
            game.value = next
            if let mover = board.turn { eventInput.send(.moved(mover, position)) }
            if next.isOver { finish(next) }
        } catch .gameOver {
            eventInput.send(.ignored(position))
        } catch {
            eventInput.send(.refused(position, error))
            flash.value = position
            flashTimer.inner = scheduler.schedule(after: timings.illegalFlash) { [flash] in flash.value = nil }
        }
    }

    /// The new-game button asked for a new game (a short press once over, or a hold).
    func requestNewGame() {
        guard wake() else { return }
        let starter = nextStarter.value
        nextStarter.value = starter.opponent
        blinkTimer.inner = nil
        flashTimer.inner = nil
        flash.value = nil
        blinkOn.value = true
        game.value = Board(starter: starter)
        eventInput.send(.started(starter: starter))
    }

    private func finish(_ board: Board) {
        scores.modify { $0 = $0.recording(board.outcome) }
        startBlinking()
        eventInput.send(.finished(board.outcome))
    }

    private func startBlinking() {
        blinkOn.value = true
        blinkTimer.inner = scheduler.schedule(every: timings.blinkHalfPeriod) { [blinkOn] in
            blinkOn.modify { $0.toggle() }
        }
    }

    /// Notes activity. Returns `false` when the board was asleep: this press only woke it.
    private func wake() -> Bool {
        restartIdleCountdown()
        guard asleep.value else { return true }
        asleep.value = false
        eventInput.send(.wokeUp)
        return false
    }

    private func restartIdleCountdown() {
        idleTimer.inner = scheduler.schedule(after: timings.idleSleep) { [weak self] in
            guard let self, !asleep.value else { return }
            asleep.value = true
            eventInput.send(.fellAsleep)
        }
    }
}
