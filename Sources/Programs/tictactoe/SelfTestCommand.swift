import Basics
import ArgumentParser
import BoardConfiguration
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GPIO
import KernelGPIO
import Reactive
import SystemdService
import TicTacToe
import WiringCheck

/// `tictactoe selftest`: walks a builder through the board, or checks the inputs unattended.
struct SelfTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Check the wiring: every LED and button, with you at the board.",
        discussion: """
            Lights each cell red, green and amber, X's mark beside O's (with dim marks: check that \
            brightness alone tells them apart) and each status LED, asking what you see, then \
            asks you to press each button in turn, and names the wiring fault behind each wrong \
            answer. Stop the tictactoe service first (it holds the lines). With \
            --non-interactive it only checks that no button reads pressed at rest. Exit status \
            1 when a fault was found.
            """)

    @Option(help: "The configuration whose pin map to check. \(configurationDefault)")
    var config: String?

    @Option(help: "The GPIO chip: path, name or label. Overrides the configuration.")
    var chip: String?

    @Flag(help: "Check the inputs only, with nobody at the board (for scripts).")
    var nonInteractive = false

    func run() throws {
        let loaded = try chooseConfiguration(config).configuration
        let settings = loaded.settings
        let test = SelfTest(
            pins: settings.pins, buttons: settings.buttons, rowPeriod: settings.scanRowPeriod, dimMarks: settings.marks == .colourAndBrightness,
            dimCycle: settings.dimCycle,
            intensityKeys: (ConfigurationSchema.intensity(.red).path, ConfigurationSchema.intensity(.green).path))
        let scheduler = ThreadScheduler(named: "self-test")
        defer { scheduler.stop() }
        // A signal (Ctrl-C, a closed terminal, kill) ends the test with every LED off.
        let stop = SelfTestStop()
        let signals = catchEndingSignals { number in
            stop.stop()
            printError("self-test stopped by \(ShutdownSignal.name(of: number)); every LED is off.")
            Glibc.exit(128 + number)
        }
        defer { signals.cancel() }
        let faults: [String]
        do {
            let gpio = try LibgpiodChip.open(chip ?? loaded.chip ?? Run.headerChip())
            say("self-test on \(gpio.name) [\(gpio.label)]")
            faults = nonInteractive
                ? try test.checkInputsAtRest(chip: gpio, scheduler: scheduler)
                : try test.run(chip: gpio, scheduler: scheduler, operator: TerminalOperator(), stop: stop)
        } catch let error as NoAnswer {
            printError(error.description)
            throw ExitStatus.inputError
        } catch {
            throw ExitStatus.reporting(error)
        }
        if faults.isEmpty {
            say(nonInteractive ? "inputs OK: no button reads pressed at rest" : "all LEDs and buttons OK")
            return
        }
        say("\(faults.count) problem\(faults.count == 1 ? "" : "s") found:")
        for fault in faults { say("  - \(fault)") }
        throw ExitCode(1)
    }
}

/// The self-test's questions on the terminal, answered by the person at the board.
struct TerminalOperator: SelfTestOperator {
    func say(_ text: String) { tictactoe.say(text) }

    /// The answer typed, without blanks, in lower case; throws when standard input has ended,
    /// so that a closed input ends the test instead of asking for ever.
    private func ask(_ question: String) throws(NoAnswer) -> String {
        tictactoe.say(question)
        guard let line = readLine() else { throw NoAnswer(reason: "standard input ended") }
        return String(line.filter { !$0.isWhitespace }).lowercased()
    }

    func seenCell(prompt: String) throws(NoAnswer) -> SeenCell? {
        while true {
            let answer = try ask(prompt + "\n  Type the cell's keypad key (7 8 9 is the top row) and r, g or a (amber), e.g. 7r; or 0 if nothing is lit:")
            if answer == "0" { return nil }
            if answer.count == 2, let digit = answer.first?.wholeNumberValue, let cell = Position(keypadKey: digit),
               let colour = answer.last, "rga".contains(colour) {
                return SeenCell(index: cell.index, red: colour != "g", green: colour != "r")
            }
            tictactoe.say("  Please answer like 7r, 5g, 3a or 0.")
        }
    }

    func seenStatus(prompt: String) throws(NoAnswer) -> (x: Bool, o: Bool) {
        while true {
            switch try ask(prompt + "\n  Type x (red, X's side), o (green, O's side), b (both) or 0 (none):") {
            case "x": return (true, false)
            case "o": return (false, true)
            case "b": return (true, true)
            case "0": return (false, false)
            default: tictactoe.say("  Please answer x, o, b or 0.")
            }
        }
    }

    func brighterCell(prompt: String) throws(NoAnswer) -> Int? {
        while true {
            let answer = try ask(prompt + "\n  Type the brighter cell's keypad key (7 8 9 is the top row), or 0 if they look the same:")
            if answer == "0" { return nil }
            if answer.count == 1, let digit = answer.first?.wholeNumberValue, let cell = Position(keypadKey: digit) { return cell.index }
            tictactoe.say("  Please answer with one keypad key, or 0.")
        }
    }

    func press(_ target: ButtonTarget, prompt: String, waitingUpTo timeout: Duration, until pressed: @escaping @Sendable () -> Bool) {
        tictactoe.say(prompt + " (waiting up to \(timeout.components.seconds) s)")
        let deadline = DispatchTime.now() + .seconds(Int(timeout.components.seconds))
        while !pressed() && DispatchTime.now() < deadline { usleep(20_000) }
    }
}
