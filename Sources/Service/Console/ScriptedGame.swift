import Basics
import BoardSimulation
import Devices
import ViewModel
import Reactive
import SimulatedGPIO
import WiredBoard

/// The terminal game without a terminal: plays a ``KeyScript`` on the real stack over a
/// simulated chip in virtual time, and prints what the board showed after each key, as
/// ``BoardRenderer/plain(_:players:marks:)`` writes its appearance.
///
/// Each key is pressed (and released 120 ms later, as a finger would), then the board is looked
/// at 150 ms after the press, once the release has registered, and the rest of ``keyLength``
/// passes before the next key (the computer's thinking, a flash's end). Nothing sleeps: virtual
/// time runs as fast as the machine can run the game, LED scan included (docs/BENCHMARKS.md has
/// the cost of a key and of a `z`, which plays the whole idle time), so each block is handed on
/// as it is seen.
public struct ScriptedGame: Sendable {
    public var settings: BoardSettings
    /// Press and release every button with contact bounce.
    public var bounce: Bool

    public init(settings: BoardSettings = BoardSettings(), bounce: Bool = false) {
        self.settings = settings
        self.bounce = bounce
    }

    /// How long after a key's press the board is looked at: after the 120 ms tap is released
    /// (a short press of new game acts on release) and within the 400 ms refused flash.
    static let lookDelay: Duration = .milliseconds(150)
    /// How long a key lasts in virtual time, from its press to the next key's.
    static let keyLength: Duration = .seconds(1)

    /// Plays `script` and returns the whole transcript.
    public func play(_ script: KeyScript) throws(BoardError) -> String {
        var transcript = ""
        try play(script) { transcript += $0 + "\n" }
        return transcript
    }

    /// Plays `script`, handing each line of the transcript to `write` as soon as it is known.
    public func play(_ script: KeyScript, writing write: (String) -> Void) throws(BoardError) {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        let board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler)
        board.start()
        let person = SimulatedBoard(chip: chip, pins: settings.pins, scheduler: scheduler)
        let viewModel = board.viewModel
        let messages = Protected<[String]>([])
        let listening = viewModel.events.observeValues { event in
            let text = BoardRenderer.message(for: event, players: viewModel.names)
            if !text.isEmpty { messages.withValue { $0.append(text) } }
        }
        defer { listening.dispose() }

        let look = { BoardRenderer.plain(Appearance(viewModel.state.value), players: viewModel.names, marks: viewModel.marks) }
        write(viewModel.names.matchTitle)
        scheduler.advance(by: .milliseconds(100))
        write(look())
        scheduler.advance(by: Self.keyLength - Self.lookDelay)

        for step in script.steps {
            messages.withValue { $0 = [] }
            if step.command == .quit {
                write("> q: quit")
                break
            }
            act(step.command, on: person, advancing: scheduler)
            scheduler.advance(by: Self.lookDelay)
            let seen = look()
            scheduler.advance(by: Self.keyLength - Self.lookDelay)
            let said = messages.value
            write("> \(step.key): \(Self.describe(step.command))" + (said.isEmpty ? "" : " — " + said.joined(separator: " ")))
            write(seen)
        }
        board.shutdown()
        write("score: " + BoardRenderer.scoreLine(viewModel.score.value, players: viewModel.names))
    }

    /// What a person does at the board for `command`, in virtual time.
    private func act(_ command: KeyCommand, on person: SimulatedBoard, advancing scheduler: TestScheduler) {
        switch command {
        case .cell(let position): person.tap(position, bounce: bounce)
        case .newGame: person.pressNewGame(bounce: bounce)
        case .holdNewGame:
            person.pushNewGame()
            scheduler.advance(by: settings.buttons.hold + .milliseconds(100))
            person.releaseNewGame()
        case .nextOpponent: person.chooseNextOpponent(bounce: bounce)
        case .wait: scheduler.advance(by: .seconds(1))
        case .waitForSleep: scheduler.advance(by: settings.game.idleSleep + .milliseconds(100))
        case .quit: break
        }
    }

    private static func describe(_ command: KeyCommand) -> String {
        switch command {
        case .cell(let position): "press \(position.name)"
        case .newGame: "press new game"
        case .holdNewGame: "hold new game"
        case .nextOpponent: "hold new game and tap a cell"
        case .wait: "wait a second"
        case .waitForSleep: "wait until the lights sleep"
        case .quit: "quit"
        }
    }
}
