import Basics
import Devices
import GPIO
import Lights
import ViewModel
import Reactive
import TicTacToe

/// One physical board, wired together on one chip: buttons in, game in the middle, lights out.
///
/// ```
/// chip ─edges─▶ ButtonPad ─positions─▶ GameViewModel ─frames─▶ LEDBoard ─▶ chip
///                        └─new game (short / held / with a cell)─▶ actions
/// ```
///
/// ## Contract
/// - `init` validates the pin map and requests every line, or throws having requested none
///   (lines already taken are released again).
/// - Everything runs on `scheduler`: edges hop onto it, timers fire on it.
/// - ``shutdown()`` ends the bindings, switches every LED off and releases all lines; it is
///   idempotent. After it nothing is written to the chip. Call it on the scheduler (the
///   devices are confined to it), as the service and the terminal game do.
public final class GameBoard: Sendable {
    public let viewModel: GameViewModel
    public let pad: ButtonPad
    public let lights: LEDBoard
    public let settings: BoardSettings
    /// The LED lines' persistent failure (``LEDBoard/failures``), once: the board stops
    /// scanning. A transient write error is retried, not sent.
    public let failures: Signal<LEDFailure>
    /// Cells pressed from elsewhere than the buttons (the board's API): send on the scheduler;
    /// each enters the game as a button's press does.
    public let remotePresses: Signal<Position>.Input

    private let outputs: any OutputLines
    private let scheduler: any Scheduler
    private let bindings = CompositeDisposable()
    private let isShutDown = Protected(false)

    /// - Parameters:
    ///   - snapshot: a saved game, scores, opponent and next starter to carry on from; without
    ///     one, a fresh game against `settings.opponent`.
    ///   - random: the computer opponent's source of chance; seed it to replay games.
    public init(
        chip: any GPIOChip, settings: BoardSettings, scheduler: any Scheduler, restoring snapshot: GameSnapshot? = nil,
        random: SeededRandom = SeededRandom()
    ) throws(BoardError) {
        let pins: PinMap
        do { pins = try settings.pins.validated() } catch { throw .pinMap(error) }
        guard settings.scanRowPeriod <= settings.longestScanRow else { throw .scanTooSlow(settings) }
        self.settings = settings
        self.scheduler = scheduler

        do {
            outputs = try chip.requestOutputs(OutputConfiguration(
                offsets: pins.outputOffsets, initialLevel: .low, consumer: "tictactoe-leds"))
        } catch { throw .gpio(error) }
        // Lines start low; with active-low LED groups that would be "on", so switch off properly.
        do {
            try outputs.set(pins.allLEDsOff)
            pad = try ButtonPad(chip: chip, pins: pins, timings: settings.buttons, scheduler: scheduler)
        } catch {
            outputs.release()
            throw .gpio(error)
        }

        lights = LEDBoard(
            lines: outputs, pins: pins, rowPeriod: settings.scanRowPeriod, dimCycle: settings.dimCycle, scheduler: scheduler)
        let remote = Signal<Position>.pipe(confinedTo: scheduler)
        remotePresses = remote.input
        // The learner's boxes are the saved game's; how it counts beads is the configuration's.
        var restoring = snapshot ?? GameSnapshot(opponent: settings.opponent)
        restoring.learner = restoring.learner.following(settings.learner)
        viewModel = GameViewModel(
            positions: pad.positions, remotePositions: remote.output, restoring: restoring, timings: settings.game,
            scheduler: scheduler, players: settings.players, marks: settings.marks, random: random)
        failures = lights.failures

        bindings += lights <~ viewModel.frames
        bindings += viewModel.newGame <~ pad.newGameShortPresses
        bindings += viewModel.startOver <~ pad.newGameHolds
        bindings += viewModel.nextOpponent <~ pad.opponentGestures
    }

    /// Whether the buttons are still being read.
    public var isListening: Bool { pad.isListening }

    /// Starts the lights, on the scheduler, and returns once they have started.
    public func start() { scheduler.runAndWait { [lights] in lights.start() } }

    /// Ends the game's output: bindings off, every LED off, all lines released.
    public func shutdown() {
        let first = isShutDown.withValue { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        bindings.dispose()
        lights.stop()
        pad.release()
        outputs.release()
    }

    deinit { shutdown() }
}
