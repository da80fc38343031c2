import ArgumentParser
import GPIO
import KernelGPIO
import WiredBoard

/// `tictactoe lights-off`: every LED line of the configured board off, then the lines released.
struct LightsOff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lights-off",
        abstract: "Switch every LED of the board off and release the lines.",
        discussion: """
            The Raspberry Pi's GPIO drivers keep an output at its last level after the program \
            that set it has gone, so a board whose program was killed, crashed or was stopped by \
            the watchdog keeps a row lit. The service runs this after its process ends, however \
            it ended (ExecStopPost=). Fails with 75 while another program holds the lines.
            """)

    /// The configuration file whose wiring and chip to use.
    @Option(help: "The configuration file. \(configurationDefault)")
    var config: String?

    /// Overrides the configuration's chip.
    @Option(help: "The GPIO chip: path, name (gpiochip0) or label (pinctrl-bcm2711). Overrides the configuration.")
    var chip: String?

    func run() throws {
        let loaded = try chooseConfiguration(config).configuration
        do {
            let gpio = try LibgpiodChip.open(chip ?? loaded.chip ?? Run.headerChip())
            try GameBoard.switchLightsOff(chip: gpio, pins: loaded.settings.pins)
            say("every LED line off on \(gpio.name) [\(gpio.label)]")
        } catch {
            throw ExitStatus.reporting(error)
        }
    }
}
