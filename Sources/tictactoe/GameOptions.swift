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
    @Option(name: .customLong("idle-sleep"), help: "Seconds without a press before the lights sleep.")
    var idleSleep: Int = 300

    func validate() throws {
        guard idleSleep > 0 else {
            throw ValidationError("--idle-sleep must be a positive number of seconds (got \(idleSleep)).")
        }
    }

    /// The board settings these options describe, on the default wiring.
    var settings: BoardSettings {
        var settings = BoardSettings(players: PlayerNames(x: xName, o: oName))
        settings.game.idleSleep = .seconds(idleSleep)
        return settings
    }
}
