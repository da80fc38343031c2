import ArgumentParser

/// The in-VM half of the real-kernel suites (vm/): the real `tictactoe` on a gpio-sim chip,
/// buttons pressed through the simulated pulls, the LEDs read from the kernel's record of every
/// line write. It reports raw observations, one `@@ {json}` line each, for the host's tests to
/// judge; it judges nothing itself.
@main
struct Harness: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio-sim-harness",
        abstract: "The in-VM half of the real-kernel suites: the real tictactoe on a gpio-sim chip.",
        subcommands: [Suite.self, Tool.self, WriteLogReplay.self, APIGames.self],
        defaultSubcommand: Suite.self)
}

/// The gpio-sim VM's suite: a missing chip, a busy line, the self-test, a whole game, latency,
/// SIGTERM mid-game and a restart.
struct Suite: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the real-kernel suite against the given tictactoe on a new gpio-sim chip.")

    /// The generation of libgpiod's tools (their options differ).
    enum Generation: String, ExpressibleByArgument, CaseIterable {
        case v1, v2
    }

    @Argument(help: "The tictactoe binary under test.")
    var tictactoe: String

    @Argument(help: "libgpiod's gpiomon.")
    var gpiomon: String

    @Argument(help: "libgpiod's gpioinfo.")
    var gpioinfo: String

    @Argument(help: "The generation of gpiomon and gpioinfo.")
    var generation: Generation

    func run() throws {
        let sim: GPIOSim
        do {
            sim = try GPIOSim.create(lines: 28, label: "tictactoe-sim")
        } catch {
            report("setup", ["error": "\(error)"])
            throw ExitCode.failure
        }
        report("setup", ["chip": sim.chipName, "device": sim.deviceName, "label": sim.label])
        GameSuite(tictactoe: tictactoe, gpiomon: gpiomon, gpioinfo: gpioinfo, toolsV2: generation == .v2, sim: sim).run()
    }
}
