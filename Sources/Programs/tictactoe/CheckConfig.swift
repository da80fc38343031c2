import ArgumentParser
import BoardConfiguration
import ConfigurationFile

/// `tictactoe check-config [FILE]`: validates a configuration without touching any line.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file; exit status 78 when it is wrong.",
        discussion: "Every problem is reported with the file line, the key and what to do.")

    @Argument(help: "The file to check. Default: \(InstalledConfiguration.path).")
    var file: String = InstalledConfiguration.path

    /// The default file, written from the program's own schema: a starting point for an edit.
    @Flag(name: .customLong("print-default"), help: "Print the default configuration, every key documented, and exit.")
    var printDefault = false

    func run() throws {
        if printDefault {
            StandardOutput.write(ConfigurationSchema.defaultFile)
            return
        }
        do {
            let configuration = try Configuration.load(file: file)
            let settings = configuration.settings, pins = settings.pins
            // With dim marks, how dim the LEDs' figures make O, and how often it still comes on.
            let dim = settings.marks == .colour ? "" : "; O lit \(settings.dimCycle), \(Int(settings.slowestRefreshRate)) times a second"
            // Which rules the learner plays by, for a file may choose them without naming them.
            let learner = settings.learnerRules == .quick ? "the quick rules"
                : settings.michieCounts == .michie ? "Michie's rules" : "Michie's rules with this file's counts (\(settings.michieCounts))"
            say("\(file): OK. Chip \(configuration.chip ?? "auto (the Raspberry Pi header chip)"); \(pins.inputOffsets.count) button lines, \(pins.outputOffsets.count) LED lines; \(Int(settings.scanFrameRate)) matrix frames a second\(dim); the learner by \(learner).")
        } catch {
            printError(error.description)
            throw ExitStatus.badConfiguration
        }
    }
}
