import ArgumentParser
import Basics
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe`: a physical tic-tac-toe board on a Raspberry Pi, and its simulator.
@main
struct TicTacToeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tictactoe",
        abstract: "A tic-tac-toe board of nine buttons and a bi-colour LED matrix, on GPIO.",
        version: ProgramVersion.current,
        // No default subcommand: a mistyped one must be named as unknown, not read as simulate's.
        subcommands: [
            Simulate.self, Run.self, Watch.self, Press.self, NewGame.self, OpponentCommand.self, LearnerCommand.self, Status.self, History.self,
            Boards.self, LightsOff.self, CheckConfig.self, CheckState.self, SelfTestCommand.self, HardwareDocsCommand.self,
        ])

    /// The program and its version, as the board's API says hello.
    static var program: String { "tictactoe " + (configuration.version) }

    /// ArgumentParser's own `main`, except that what it prints (usage errors echo the
    /// arguments: "Unexpected argument '…'") goes out terminal-safe, like every other message,
    /// and that output which could not be written is an error (exit 74), not a success.
    static func main() {
        // A reader that went away (`| head -c1`) must be a failed write, told and ended with
        // exit 74 as a full disk is, not SIGPIPE's silent death (141 in a shell). Sockets
        // already send with MSG_NOSIGNAL; this covers standard output.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
            try StandardOutput.check()
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty { write(message, to: status == .success ? STDOUT_FILENO : STDERR_FILENO) }
            if status == .success, (try? StandardOutput.check()) == nil { Glibc.exit(ExitStatus.inputError.rawValue) }
            Glibc.exit(status.rawValue)
        }
    }
}
