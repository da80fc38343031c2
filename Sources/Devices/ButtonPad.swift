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
    /// get (for diagnostics).
    public let edges: Signal<EdgeEvent>
    /// The cell buttons in reading order, and the new-game button.
    public let cells: [Button]
    public let newGame: Button

    private let lines: any InputLines
    private let subscriptions = CompositeDisposable()
    private let holdTimer = SerialDisposable()
    private let gestureInput: Signal<NewGamePress>.Input

    /// Requests the button lines of `pins` from `chip` and starts listening.
    public init(chip: any GPIOChip, pins: PinMap, timings: ButtonTimings, scheduler: any Scheduler) throws(GPIOError) {
        precondition(pins.cellButtons.count == 9, "ButtonPad: validate the pin map first (buttons.cells needs 9 lines)")
        lines = try chip.requestInputs(InputConfiguration(
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
        let made = zip(pins.inputOffsets, levels).map { offset, level in
            Button(offset: offset, polarity: pins.buttonPolarity, initialLevel: level,
                   debounce: timings.debounce, scheduler: scheduler)
        }
        cells = Array(made.prefix(9))
        let newGame = made[9]
        self.newGame = newGame

        // The seed's idea: one tap signal per cell, merged into a single stream of positions;
        // cells tapped while new game is held are the opponent gesture instead.
        let cellPresses = Signal.merge(zip(Position.all, cells).map { position, button in
            button.presses.map { _ in (position, newGame.isPressed.value) }
        })
        positions = cellPresses.filter { !$0.1 }.map(\.0)

        (newGamePresses, gestureInput) = Signal<NewGamePress>.pipe()

        let byOffset = Dictionary(uniqueKeysWithValues: made.map { ($0.offset, $0) })
        // Derived, not a pipe: it costs nothing on the event path unless someone observes it.
        edges = lines.events.observe(on: scheduler)
        subscriptions += edges.observeValues { event in
            byOffset[event.offset]?.handle(event)
        }
        subscriptions += newGame.presses.observeValues { [holdTimer, gestureInput, newGame] time in
            holdTimer.inner = scheduler.schedule(at: time + timings.hold) {
                guard newGame.isPressed.value else { return }
                holdTimer.inner = nil
                gestureInput.send(.held)
            }
        }
        subscriptions += newGame.releases.observeValues { [holdTimer, gestureInput] _ in
            // A pending hold timer means the hold time has not passed: a short press.
            guard let pending = holdTimer.inner, !pending.isDisposed else { return }
            holdTimer.inner = nil
            gestureInput.send(.short)
        }
        subscriptions += cellPresses.filter(\.1).observeValues { [holdTimer, gestureInput] position, _ in
            holdTimer.inner = nil
            gestureInput.send(.withCell(position))
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
        holdTimer.dispose()
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
