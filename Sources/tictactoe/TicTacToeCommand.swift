import ArgumentParser

/// `tictactoe`: a physical tic-tac-toe board on a Raspberry Pi, and its simulator.
@main
struct TicTacToeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tictactoe",
        abstract: "A tic-tac-toe board of nine buttons and a bi-colour LED matrix, on GPIO.",
        // The package's version too: make deb refuses to build when packaging/debian/changelog says otherwise.
        version: "0.3.0",
        // No default subcommand: a mistyped one must be named as unknown, not read as simulate's.
        subcommands: [Simulate.self, Run.self, LightsOff.self, CheckConfig.self, SelfTestCommand.self, HardwareDocsCommand.self])
}
