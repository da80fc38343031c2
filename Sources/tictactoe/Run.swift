import Appliance
import ArgumentParser
import Console
import Dispatch
import Foundation
import GPIO
import KernelGPIO
import Presentation
import Reactive

/// `tictactoe run`: the game on a real GPIO chip.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play on the board wired to a real GPIO chip (libgpiod).",
        discussion: """
            Requests the board's lines from the chip, prints a line starting with "ready" once \
            the first frame shows, and plays until SIGINT or SIGTERM, which switch every LED \
            off and release the lines before exit. The wiring is the default pin map (see the \
            README); a configuration file comes with the service.
            """)

    /// Which chip: a device path, a name such as gpiochip0, or a label such as pinctrl-bcm2711.
    @Option(help: "The GPIO chip: path, name (gpiochip0) or label (pinctrl-bcm2711). Default: the Raspberry Pi header chip.")
    var chip: String?

    @OptionGroup var game: GameOptions

    /// The labels of the 40-pin header's chip on the Pi models this supports.
    static let headerLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    func run() throws {
        let settings = game.settings
        let scheduler = QueueScheduler(label: "tictactoe.game")
        let board: GameBoard
        let gpio: LibgpiodChip
        do {
            gpio = try LibgpiodChip.open(chip ?? Self.headerChip())
            board = try GameBoard(chip: gpio, settings: settings, scheduler: scheduler)
        } catch let error as GPIOError {
            printError(error.description)
            throw ExitStatus.for(error)
        } catch let error as BoardError {
            printError(error.description)
            throw ExitStatus.for(error)
        }

        let log = board.viewModel.events.observeValues { event in
            let text = BoardRenderer.message(for: event, players: settings.players)
            if !text.isEmpty { say(text) }
        }
        let failures = board.failures.observeValues { error in
            printError("LED output failed: \(error). Stopping.")
            board.shutdown()
            Foundation.exit(ExitStatus.gpioUnavailable.rawValue)
        }

        let stop: @Sendable (Int32) -> Void = { signal in
            scheduler.schedule {
                log.dispose()
                failures.dispose()
                board.shutdown()
                say("stopped (signal \(signal)): LEDs off, lines released")
                Foundation.exit(0)
            }
        }
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { stop(number) }
            source.resume()
            return source
        }

        board.start()
        // Ready once the scan has run a full frame on the real lines.
        scheduler.schedule(after: settings.scanRowPeriod * 3) {
            say("ready on \(gpio.name) [\(gpio.label)] with \(LibgpiodChip.libraryDescription); \(settings.players.matchTitle)")
        }
        withExtendedLifetime(sources) { dispatchMain() }
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
