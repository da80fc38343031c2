import ArgumentParser
import BoardProtocol

/// `tictactoe learner …`: the running board's matchbox learner.
struct LearnerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learner",
        abstract: "The running board's matchbox learner.",
        subcommands: [ResetLearner.self])
}

/// `tictactoe learner reset --yes [--if-games N] [--if-resets N]`: a fresh learner, on purpose only.
///
/// Without `--yes` it asks the board nothing and exits 64 (EX_USAGE), saying how to confirm:
/// what the learner learnt is gone for good once reset, so the command never does it by default.
struct ResetLearner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Replace the running board's learner with a fresh one: every box emptied, its record cleared.",
        discussion: """
            What it has learnt is gone for good, so it takes --yes. Refused (exit 65) while a game \
            against the learner is under way: finish it, or give it up with new-game --abandon. \
            Without --yes it sends nothing and exits 64.
            """)

    @OptionGroup var socket: SocketOptions

    /// The confirmation: without it nothing is sent.
    @Flag(help: "Confirm the reset: what the learner has learnt is lost.")
    var yes = false

    /// For scripts that read the count first: reset only the learner they read.
    @Option(name: .customLong("if-games"), help: ArgumentHelp("Reset only if the learner has played exactly N games (as status says).", valueName: "N"))
    var ifGames: Int?

    /// With --if-games: the learner read is the same one, not one reset and played as far since.
    @Option(name: .customLong("if-resets"), help: ArgumentHelp("Reset only if the learner has been reset exactly N times before (status --json's learner.resets).", valueName: "N"))
    var ifResets: Int?

    func validate() throws {
        if let ifGames, ifGames < 0 { throw ValidationError("--if-games is \(ifGames); give a count of games, 0 or more.") }
        if let ifResets, ifResets < 0 { throw ValidationError("--if-resets is \(ifResets); give a count of resets, 0 or more.") }
    }

    func run() throws {
        guard yes else {
            printError("not reset: a reset loses everything the learner has learnt, so it takes --yes. Run: tictactoe learner reset --yes")
            throw ExitStatus.notConfirmed
        }
        try socket.command(.resetLearner(games: ifGames, resets: ifResets))
    }
}
