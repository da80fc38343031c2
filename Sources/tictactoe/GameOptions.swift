import Appliance
import ArgumentParser
import BoardConfiguration
import Presentation

/// The options every way of playing shares: player names and the idle time.
struct GameOptions: ParsableArguments {
    /// Name of the player with the red marks (X), shown in the title and messages.
    @Option(name: .customLong("x-name"), help: "Name of player X (red).")
    var xName: String?

    /// Name of the player with the green marks (O).
    @Option(name: .customLong("o-name"), help: "Name of player O (green).")
    var oName: String?

    /// Seconds without input before the lights sleep.
    /// Taken as written even when it starts with a dash, so that -1 is refused for its value.
    @Option(
        name: .customLong("idle-sleep"), parsing: .unconditional,
        help: "Seconds without a press before the lights sleep: \(ConfigurationSchema.idleSleep.allowed) (default: \(ConfigurationSchema.idleSleep.defaultText), or the configuration's).")
    var idleSleep: Int?

    /// The configuration's limits, so that the command line cannot ask for what a file may not.
    func validate() throws {
        if let idleSleep, let problem = ConfigurationSchema.idleSleep.problem(with: idleSleep) {
            throw ValidationError("--idle-sleep \(problem) It sets \(ConfigurationSchema.idleSleep.path).")
        }
        for (option, name) in [("--x-name", xName), ("--o-name", oName)] {
            if let name, let problem = ConfigurationSchema.nameProblem(name) {
                throw ValidationError("\(option) \(problem)")
            }
        }
    }

    /// `settings` with these options applied over it.
    func applied(to settings: BoardSettings) -> BoardSettings {
        var settings = settings
        if let xName { settings.players.x = xName }
        if let oName { settings.players.o = oName }
        if let idleSleep { settings.game.idleSleep = .seconds(idleSleep) }
        return settings
    }
}
