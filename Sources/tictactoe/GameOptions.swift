import Appliance
import ArgumentParser
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
    @Option(name: .customLong("idle-sleep"), help: "Seconds without a press before the lights sleep (default: 300, or the configuration's).")
    var idleSleep: Int?

    func validate() throws {
        if let idleSleep, idleSleep <= 0 {
            throw ValidationError("--idle-sleep must be a positive number of seconds (got \(idleSleep)).")
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
