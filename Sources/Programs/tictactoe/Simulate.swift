import ArgumentParser
import Basics
import BoardConfiguration
import Console
import WiredBoard
#if canImport(Glibc)
import Glibc
#endif
import ViewModel
import StandardStreams

/// `tictactoe simulate`: the game on a simulated chip, in the terminal.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play on a simulated GPIO chip in the terminal.",
        discussion: """
            Keys 1–9 press the cell buttons in numeric-keypad layout (7 8 9 is the top row), \
            n presses new game (it starts a new game once the game is over), N holds new game \
            (restarts mid-game), m holds new game and taps a cell (the next opponent: two \
            players, the computer at level 1 to 4, the learner, then each other board seen online when \
            a network link runs), q quits. The board is drawn as docs/VIEWS.md tables it: each cell its mark's \
            letter between two signs, readable without colour, in the LEDs' colours.

            When standard input is not a terminal, it is read as a script of those keys \
            (spaces and newlines ignored, # starts a comment, . waits a second, z waits until \
            the lights sleep) and the board is printed after each key as it goes, in virtual \
            time: nothing waits for the clock, and a z plays the whole idle time's LED scan.

            With --serve PATH there is no terminal board: the simulated board runs headless in \
            real time, as the service runs the real one, and serves the board's API at PATH until \
            SIGTERM or SIGINT, so that watch, press, status and history can be tried anywhere.
            """)

    @OptionGroup var game: GameOptions

    /// Make every simulated press and release chatter, to watch the debouncing work.
    @Flag(help: "Simulate contact bounce on every press and release.")
    var bounce = false

    /// Headless, serving the board's API: the way to try the API with no GPIO.
    @Option(help: "Run headless, serving the board's API on a socket made at this path, until SIGTERM or SIGINT.")
    var serve: String?

    /// Where a served simulation keeps its game and history.
    @Option(name: .customLong("state-dir"), help: "With --serve: where the game and its history are kept. Default: a new temporary directory, removed at the end.")
    var stateDirectory: String?

    /// What the served board's LEDs show, for tests and tools that watch the lines, not the API.
    @Option(help: ArgumentHelp(
        "With --serve: write what an eye sees of the simulated LEDs to this file, a JSON line each time it changes.",
        valueName: "file"))
    var leds: String?

    func validate() throws {
        if stateDirectory != nil && serve == nil { throw ValidationError("--state-dir goes with --serve: the terminal game keeps no state.") }
        try PathArguments.checkStateDirectory(stateDirectory)
        try PathArguments.checkSocket(serve, option: "--serve")
        if leds != nil && serve == nil { throw ValidationError("--leds goes with --serve: the terminal game draws the LEDs itself.") }
    }

    func run() throws {
        if let serve {
            try SimulatedService(
                socket: serve, stateDirectory: stateDirectory, ledsFile: leds, settings: game.applied(to: BoardSettings())).run()
            return
        }
        let settings = game.applied(to: BoardSettings())
        do {
            if TerminalGame.isInteractive {
                try TerminalGame(settings: settings, bounce: bounce).run()
            } else {
                let script = try KeyScript(parsing: try Self.standardInputText())
                try ScriptedGame(settings: settings, bounce: bounce).play(script, writing: say)
            }
        } catch let error as KeyScriptError {
            printError(error.description)
            throw ExitStatus.badScript
        } catch let error as BoardError {
            printError(error.description)
            throw ExitStatus.for(error)
        }
    }
}

extension Simulate {
    /// The key script on standard input; a clear message and exit 74 when it cannot be read.
    static func standardInputText() throws(ExitCode) -> String {
        func unreadable(_ reason: String) -> ExitCode {
            printError("standard input: \(reason); give a script of keys such as \"5 1 9 n\".")
            return ExitStatus.inputError
        }
        // Closed by the parent: held on /dev/null (StandardStreams), which would read as an
        // empty script.
        guard standard_stream_was_closed(STDIN_FILENO) == 0 else {
            throw unreadable("cannot read the file: \(TextFile.describeErrno(EBADF))")
        }
        do {
            return try TextFile.readAll(STDIN_FILENO)
        } catch {
            throw unreadable(error.reason)
        }
    }
}
