import Basics
import BoardSimulation
import Devices
import GPIO
import ViewModel
import Reactive
import SimulatedGPIO
import WiredBoard
#if canImport(Glibc)
import Glibc
#endif

/// The interactive terminal game: the real stack on a simulated chip, in real time.
///
/// Keys drive the chip's button lines (1–9 in keypad layout, `n`, `N` for a held new game, `m`
/// for the opponent gesture, `q` or Ctrl-C to quit), which the board reads as it reads real
/// buttons; 20 times a second the screen draws the appearance of the session's state, in the
/// LEDs' colours and phase (``BoardRenderer/screen(_:players:score:message:help:marks:phase:)``).
/// On quit or SIGTERM the board shuts down (every LED off, lines released) and the terminal is
/// restored.
public final class TerminalGame: Sendable {
    private let settings: BoardSettings
    private let bounce: Bool

    public init(settings: BoardSettings = BoardSettings(), bounce: Bool = false) {
        self.settings = settings
        self.bounce = bounce
    }

    /// `true` when standard input is a terminal, so the interactive game can run.
    public static var isInteractive: Bool { RawTerminal.isInteractive }

    /// Plays until the player quits.
    public func run() throws(BoardError) {
        let scheduler = ThreadScheduler(named: "game loop")
        let chip = SimulatedChip(clock: scheduler)
        let board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler)
        let person = SimulatedBoard(chip: chip, pins: settings.pins, scheduler: scheduler)
        let terminal = RawTerminal()
        terminal.enable()
        let redrawing = Self.redrawing(board, on: scheduler)
        board.start()

        // Once, whoever comes first (a key or a signal); the other waits until it is done. On the
        // game's own loop, so no scan step can run after the LEDs go off.
        let finished = Protected(false)
        let finish: @Sendable () -> Void = {
            finished.withValue { finished in
                guard !finished else { return }
                finished = true
                scheduler.runAndWait {
                    redrawing.dispose()
                    board.shutdown()
                }
                scheduler.stop()
                terminal.restore()
            }
        }
        // Every signal that would end the game ends it the way `q` does: LEDs off, terminal
        // back to normal (the screen, the cursor, echo), then the signal's exit status. Ctrl-C
        // arrives as a key (raw mode), but a SIGINT from elsewhere, a closed terminal's SIGHUP
        // and SIGQUIT must not leave the terminal raw.
        let terminations = catchEndingSignals { number in
            finish()
            exit(128 + number)
        }

        play(keysFrom: terminal, on: person)
        terminations.cancel()
        finish()
    }

    /// Reads keys and acts them out on the board until q, Ctrl-C or Ctrl-D.
    private func play(keysFrom terminal: RawTerminal, on person: SimulatedBoard) {
        while let byte = terminal.readKey() {
            if byte == 3 || byte == 4 { return }  // Ctrl-C, Ctrl-D
            guard let command = KeyCommand(key: Character(Unicode.Scalar(byte))) else { continue }
            switch command {
            case .cell(let position): person.tap(position, bounce: bounce)
            case .newGame: person.pressNewGame(bounce: bounce)
            case .holdNewGame: person.pressNewGame(for: settings.buttons.hold + .milliseconds(200), bounce: bounce)
            case .nextOpponent: person.chooseNextOpponent(bounce: bounce)
            case .quit: return
            case .wait, .waitForSleep: continue
            }
        }
    }

    /// The screen redrawn from the session's appearance, with the last event's message, every 50 ms.
    private static func redrawing(_ board: GameBoard, on scheduler: ThreadScheduler) -> any Disposable {
        let viewModel = board.viewModel
        let message = Protected("New game: \(viewModel.names.label(for: viewModel.board.value.starter)) starts. Press 1–9.")
        let listening = viewModel.events.observeValues { event in
            let text = BoardRenderer.message(for: event, players: viewModel.names)
            if !text.isEmpty { message.withValue { $0 = text } }
        }
        let redraw = scheduler.schedule(every: .milliseconds(50)) {
            let state = viewModel.state.value
            let screen = BoardRenderer.screen(
                Appearance(state), players: viewModel.names, score: state.score, message: message.value, marks: viewModel.marks,
                phase: Light.Phase(of: state))
            RawTerminal.write("\u{1B}[H" + screen)
        }
        return CompositeDisposable([listening, redraw])
    }
}
