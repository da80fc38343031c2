import Basics
import GPIO
import Reactive
import TicTacToe

/// A gesture on the new-game button.
public enum NewGamePress: Sendable, Hashable {
    /// Pressed and released before the hold time.
    case short
    /// Held for the hold time (sent while still held, once).
    case held
    /// Held down while a cell was tapped: the opponent gesture. That press of new game then
    /// sends nothing else, and the cell is not a move.
    case withCell(Position)
}

/// The ten buttons of the board: nine cells merged into one stream of positions, and the
/// new-game button turned into short presses and holds.
///
/// ## Contract
/// - Owns one input request for all ten lines (bias from the pin map's button polarity) and
///   releases it on ``release()`` or deinit.
/// - Edge events hop onto `scheduler` before anything else happens, so debouncing, holds and
///   every output signal run there, in event order.
/// - ``positions`` sends a position on each debounced press of a cell button while new game is
///   up. Two buttons pressed together give two positions, in the order of their edges.
/// - ``newGamePresses`` sends `.held` once the button has been down for `hold`, or `.short` on
///   release before that; never both for one press. A cell pressed while new game is down
///   sends `.withCell` instead of a position, and that press of new game sends nothing more
///   (no `.short` on release; no `.held` after it).
public final class ButtonPad: Sendable {
    public let positions: Signal<Position>
    public let newGamePresses: Signal<NewGamePress>
    /// Every raw edge of the ten lines, delivered on the scheduler like those the debouncers
    /// get (for diagnostics). Derived when asked for: unobserved, it costs nothing per edge.
    public var edges: Signal<EdgeEvent> { lines.events.observe(on: scheduler) }
    /// The cell buttons in reading order, and the new-game button.
    public let cells: [Button]
    public let newGame: Button

    private let lines: any InputLines
    private let scheduler: any Scheduler
    private let subscriptions = CompositeDisposable()
    private let gesture: Gesture

    /// The button lines, requested, and their levels now (released again if they cannot be read).
    private static func request(
        from chip: any GPIOChip, pins: PinMap, timings: ButtonTimings
    ) throws(GPIOError) -> (any InputLines, [LineLevel]) {
        let lines = try chip.requestInputs(InputConfiguration(
            offsets: pins.inputOffsets,
            bias: pins.buttonPolarity == .activeLow ? .pullUp : .pullDown,
            kernelDebounce: timings.kernelDebounce,
            consumer: "tictactoe-buttons"))
        var levels: [LineLevel] = []
        for offset in pins.inputOffsets {
            do { levels.append(try lines.level(of: offset)) } catch {
                lines.release()
                throw error
            }
        }
        return (lines, levels)
    }

    /// Requests the button lines of `pins` from `chip` and starts listening.
    public init(chip: any GPIOChip, pins: PinMap, timings: ButtonTimings, scheduler: any Scheduler) throws(GPIOError) {
        require(pins.cellButtons.count == 9, "ButtonPad: validate the pin map first (buttons.cells needs 9 lines)")
        let levels: [LineLevel]
        (lines, levels) = try Self.request(from: chip, pins: pins, timings: timings)
        let positionsPipe = Signal<Position>.pipe(confinedTo: scheduler)
        positions = positionsPipe.output
        let gestures = Signal<NewGamePress>.pipe(confinedTo: scheduler)
        newGamePresses = gestures.output
        let gesture = Gesture(
            newGameDown: pins.buttonPolarity.isActive(levels[9]), hold: timings.hold, scheduler: scheduler,
            positions: positionsPipe.input, gestures: gestures.input)
        self.gesture = gesture
        // Each button tells the pad of its changes by a direct call: nine buttons merged into one
        // signal of positions, without a signal per step on the way from an edge to a position.
        func button(_ index: Int, changed: @escaping @Sendable (Bool, MonotonicInstant) -> Void) -> Button {
            Button(offset: pins.inputOffsets[index], polarity: pins.buttonPolarity, initialLevel: levels[index],
                   debounce: timings.debounce, scheduler: scheduler, changed: changed)
        }
        cells = Position.all.map { position in
            button(position.index) { down, _ in if down { gesture.cellPressed(position) } }
        }
        newGame = button(9) { down, time in gesture.newGameChanged(down: down, at: time) }
        let made = cells + [newGame]

        var buttonByOffset = [Button?](repeating: nil, count: Int(LineLevels.capacity))
        for button in made { buttonByOffset[Int(button.offset.rawValue)] = button }
        self.scheduler = scheduler
        subscriptions += lines.events.observeValues(on: scheduler) { [buttonByOffset] event in
            let index = Int(event.offset.rawValue)
            if index < buttonByOffset.count { buttonByOffset[index]?.handle(event) }
        }
    }

    /// Short presses of the new-game button.
    public var newGameShortPresses: Signal<Void> { newGamePresses.filter { $0 == .short }.map(value: ()) }
    /// Holds of the new-game button.
    public var newGameHolds: Signal<Void> { newGamePresses.filter { $0 == .held }.map(value: ()) }
    /// The opponent gesture: new game held down while a cell is tapped.
    public var opponentGestures: Signal<Void> {
        newGamePresses.filter { if case .withCell = $0 { true } else { false } }.map(value: ())
    }

    /// Whether button edges are still being read.
    public var isListening: Bool { lines.isListening }

    /// Stops listening and frees the lines.
    public func release() {
        subscriptions.dispose()
        gesture.holdTimer.dispose()
        for button in cells + [newGame] { button.invalidateTimers() }
        lines.release()
    }

    deinit { release() }
}

/// Button timing: how long a contact may bounce, and how long new game must be held mid-game.
public struct ButtonTimings: Sendable, Hashable {
    /// The lockout after an accepted edge (see ``Debouncer``): adds no latency.
    public var debounce: Duration
    /// The kernel's own debounce where the chip has one (libgpiod v2). The kernel reports an
    /// edge only once the line has been stable this long, so it delays every press by as much:
    /// kept short, to spare the reader thread the bounce bursts without a noticeable delay.
    public var kernelDebounce: Duration
    public var hold: Duration

    public init(
        debounce: Duration = .milliseconds(20), kernelDebounce: Duration = .milliseconds(2),
        hold: Duration = .milliseconds(1500)
    ) {
        self.debounce = debounce
        self.kernelDebounce = kernelDebounce
        self.hold = hold
    }
}

/// What the pad makes of its buttons' debounced changes, on the scheduler: positions, or the
/// new-game gestures (short, held, with a cell). Confined to the scheduler, like the buttons
/// that call it; it refers to none of them, so their closures make no cycle through it.
private final class Gesture: @unchecked Sendable {
    let holdTimer = SerialDisposable()
    private var newGameDown: Bool
    private let hold: Duration
    private let scheduler: any Scheduler
    private let positions: Signal<Position>.Input
    private let gestures: Signal<NewGamePress>.Input

    init(newGameDown: Bool, hold: Duration, scheduler: any Scheduler, positions: Signal<Position>.Input,
         gestures: Signal<NewGamePress>.Input) {
        self.newGameDown = newGameDown
        self.hold = hold
        self.scheduler = scheduler
        self.positions = positions
        self.gestures = gestures
    }

    /// A cell went down: a move, or with new game held, the opponent gesture (after which that
    /// press of new game sends nothing more).
    func cellPressed(_ position: Position) {
        guard newGameDown else {
            positions.send(position)
            return
        }
        holdTimer.inner = nil
        gestures.send(.withCell(position))
    }

    func newGameChanged(down: Bool, at time: MonotonicInstant) {
        newGameDown = down
        if down {
            holdTimer.inner = scheduler.schedule(at: time + hold) { [weak self] in
                guard let self, newGameDown else { return }
                holdTimer.inner = nil
                gestures.send(.held)
            }
        } else {
            // A pending hold timer means the hold time has not passed: a short press.
            guard let pending = holdTimer.inner, !pending.isDisposed else { return }
            holdTimer.inner = nil
            gestures.send(.short)
        }
    }
}
