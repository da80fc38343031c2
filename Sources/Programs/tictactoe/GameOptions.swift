import ArgumentParser
import Basics
import BoardConfiguration
import ViewModel
import TicTacToe
import WiredBoard

/// The options every way of playing shares: player names, the opponent and the idle time.
struct GameOptions: ParsableArguments {
    /// Name of the player with the red marks (X), shown in the title and messages.
    @Option(name: .customLong("x-name"), help: "Name of player X (red, bright marks).")
    var xName: String?

    /// Name of the player with the green marks (O).
    @Option(name: .customLong("o-name"), help: "Name of player O (green, dim marks).")
    var oName: String?

    /// Who plays O: a second person, or the computer at a level.
    @Option(help: "Who plays O when there is no saved game (level 1 plays at random, 4 never loses). Default: the configuration's, else two-players.")
    var opponent: Opponent?

    /// Seconds without input before the lights sleep. Taken as written even when it starts with
    /// a dash, so that -1 is refused for its value.
    @Option(
        name: .customLong("idle-sleep"), parsing: .unconditional,
        help: "Seconds without a press before the lights sleep: \(ConfigurationSchema.idleSleep.allowed) (default: \(ConfigurationSchema.idleSleep.defaultText), or the configuration's).",
        transform: { text in
            guard let seconds = Int(text) else {
                throw ValidationError("give a whole number of seconds, \(ConfigurationSchema.idleSleep.allowed).")
            }
            return seconds
        })
    var idleSleep: Int?

    /// How long the computer thinks, in milliseconds: small for a test that trains the learner
    /// through the API, the thinking still there to be seen.
    @Option(
        name: .customLong("think-ms"),
        help: "Milliseconds the computer thinks before it moves: \(ConfigurationSchema.computerThinking.allowed) (default: \(ConfigurationSchema.computerThinking.defaultText), or the configuration's).")
    var thinkMilliseconds: Int?

    /// The configuration's limits, so that the command line cannot ask for what a file may not.
    func validate() throws {
        if let idleSleep, let problem = ConfigurationSchema.idleSleep.problem(with: idleSleep) {
            throw ValidationError("--idle-sleep \(problem) It sets \(ConfigurationSchema.idleSleep.path).")
        }
        if let thinkMilliseconds, let problem = ConfigurationSchema.computerThinking.problem(with: thinkMilliseconds) {
            throw ValidationError("--think-ms \(problem) It sets \(ConfigurationSchema.computerThinking.path).")
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
        if let thinkMilliseconds { settings.game.computerThinking = .milliseconds(thinkMilliseconds) }
        if let opponent { settings.opponent = opponent }
        return settings
    }
}
