import ArgumentParser
import Basics
import BoardMemory
import BoardConfiguration
import WiredBoard
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GPIO
import KernelGPIO
import Reactive
import SystemdService

/// `tictactoe run`: the game on a real GPIO chip, as a service.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play on the board wired to a real GPIO chip (libgpiod); the systemd service runs this.",
        discussion: """
            Reads the configuration, restores the saved game from the state directory, requests \
            the board's lines, logs "ready on …" once the first frame shows (and tells systemd, \
            when started by it), and plays until SIGTERM or SIGINT, which switch every LED off \
            and release the lines before exit.
            """)

    /// The configuration file (see Hardware/tictactoe.toml).
    @Option(help: "The configuration file. \(configurationDefault)")
    var config: String?

    /// Overrides the configuration's chip.
    @Option(help: "The GPIO chip: path, name (gpiochip0) or label (pinctrl-bcm2711). Overrides the configuration.")
    var chip: String?

    /// Where the game and score are kept between runs.
    @Option(name: .customLong("state-dir"), help: "Where the game and score are saved. Default: $STATE_DIRECTORY (set by systemd), else ~/.local/state/tictactoe.")
    var stateDirectory: String?

    @OptionGroup var game: GameOptions

    /// Where to serve the board's API when systemd passes no socket.
    @Option(help: "Serve the board's API on a socket made at this path (the service gets its socket from systemd, tictactoe.socket).")
    var socket: String?

    @Option(name: .customLong("log-level"), help: "The least priority logged.")
    var logLevel: ServiceLog.Level = .info

    /// SCHED_FIFO priority for the game loop; 0 keeps normal scheduling.
    @Option(
        name: .customLong("realtime-priority"), parsing: .unconditional, help: "SCHED_FIFO priority (1–99) for the game loop that scans the LEDs; 0 for normal scheduling.",
        transform: { text in
            guard let priority = Int32(text) else {
                throw ValidationError("give 0 (normal scheduling) or a priority from 1 to 99.")
            }
            return priority
        })
    var realtimePriority: Int32 = 10

    /// The labels of the 40-pin header's chip on the Pi models this supports.
    static let headerLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    func validate() throws {
        guard (0...99).contains(realtimePriority) else {
            throw ValidationError("--realtime-priority is \(realtimePriority); give 0 (normal scheduling) or a priority from 1 to 99.")
        }
        try PathArguments.checkStateDirectory(stateDirectory)
        try PathArguments.checkSocket(socket)
    }

    func run() throws {
        // Caught from here on: a SIGTERM while the board starts still ends in lights off.
        let shutdown = ShutdownSignal()
        let logger = ServiceLog(
            level: logLevel, environment: ProcessInfo.processInfo.environment)

        var (loaded, source) = try chooseConfiguration(config)
        logger.info("\(source.map { "configuration from \($0)" } ?? "no configuration file; using the default wiring")")
        loaded.settings = game.applied(to: loaded.settings)
        if let chip { loaded.chip = chip }
        let spec = loaded.chip

        let directory = stateDirectory ?? Self.defaultStateDirectory()
        let loop = ThreadScheduler(named: "game loop")
        let service = BoardService(
            configuration: loaded,
            openChip: {
                let chip = try LibgpiodChip.open(spec ?? Self.headerChip())
                logger.info("using \(chip.name) [\(chip.label)] at \(chip.path) with \(LibgpiodChip.libraryDescription)")
                return chip
            },
            stateDirectory: directory, logger: logger, realtimePriority: realtimePriority, loop: loop,
            apiSocket: { [socket] in try APIListener.take(orMakeAt: socket) }, program: TicTacToeCommand.program,
            extraParts: Self.testFaults(stateDirectory: directory, loop: loop, logger: logger))
        try service.serve(until: shutdown)
    }

    /// The test faults, for tests only: with `TICTACTOE_TEST_FAULTS=1` in the environment (the
    /// appliance's test drop-in; the command tests), a `wedge-loop` file in the state directory
    /// wedges the game loop once. None otherwise.
    static func testFaults(
        stateDirectory directory: String, loop: any Scheduler, logger: ServiceLog
    ) -> @Sendable (PlayingBoard, any Scheduler) -> [any ServicePart] {
        guard ProcessInfo.processInfo.environment["TICTACTOE_TEST_FAULTS"] == "1" else { return { _, _ in [] } }
        return { _, clock in
            [LoopWedgeFault(trigger: directory + "/wedge-loop", loop: loop, clock: clock, interval: .seconds(1), logger: logger)]
        }
    }

    static func defaultStateDirectory() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return String(systemd) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/tictactoe" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/tictactoe"
    }

    /// The Pi's header chip, found by label.
    static func headerChip() throws(GPIOError) -> String {
        let chips = LibgpiodChip.availableChips()
        for label in headerLabels where chips.contains(where: { $0.label == label }) {
            return label
        }
        throw .chipNotFound(spec: headerLabels.joined(separator: " or "), available: chips)
    }
}

extension BoardService {
    /// Plays until `shutdown` catches a signal, then stops; a failure to start is told to the
    /// user and becomes its exit status.
    func serve(until shutdown: ShutdownSignal) throws {
        do {
            try run(until: shutdown)
        } catch {
            throw ExitStatus.reporting(error)
        }
    }
}
