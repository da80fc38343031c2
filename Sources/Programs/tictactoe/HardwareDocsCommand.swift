import ArgumentParser
import Basics
import BoardConfiguration
import ConfigurationFile
import HardwareDocs

/// `tictactoe hardware-docs`: regenerates the wiring picture and the header table from the pin
/// map, so the documents can never drift from the configuration.
struct HardwareDocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hardware-docs",
        abstract: "Regenerate Hardware/wiring.svg and Hardware/header.md from a configuration.")

    @Option(help: "The configuration whose pin map to draw.")
    var config: String = InstalledConfiguration.projectCopy

    @Option(help: "The folder to write wiring.svg and header.md into.")
    var output: String = "Hardware"

    func validate() throws {
        guard !output.isEmpty else {
            throw ValidationError("--output is empty; name the folder to write into (Hardware, or . for here).")
        }
    }

    func run() throws {
        let pins: Configuration
        do { pins = try Configuration.load(file: config) } catch {
            printError(error.description)
            throw ExitStatus.badConfiguration
        }
        let source = config.split(separator: "/").last.map(String.init) ?? config
        let files = [
            ("wiring.svg", WiringDiagram.svg(for: pins.settings.pins, source: source)),
            ("header.md", HeaderTable.markdown(for: pins.settings.pins, source: source)),
        ]
        for (name, contents) in files {
            let path = output + "/" + name
            do { try TextFile.write(contents, to: path) } catch {
                printError("\(path.shownPath): \(error.reason). Give an existing, writable --output folder.")
                throw ExitStatus.cannotCreate
            }
            say("wrote \(path)")
        }
    }
}
