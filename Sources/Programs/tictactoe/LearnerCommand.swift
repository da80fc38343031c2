import ArgumentParser
import Basics
import BoardProtocol
import Console
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe learner …`: the running board's matchbox learner.
struct LearnerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learner",
        abstract: "The running board's matchbox learner.",
        subcommands: [TeachLearner.self, ResetLearner.self])
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

/// `tictactoe learner teach --games N --against LEVEL`: a lesson for the running board's
/// learner, its progress drawn on a terminal until it ends; Ctrl-C stops it, keeping what it
/// learnt so far (saved as every game is).
struct TeachLearner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "teach",
        abstract: "Teach the running board's learner: whole games against the computer, played on the board in seconds.",
        discussion: """
            The learner plays O, each side starting every other game; the games go in its record, \
            not in any score or the history. Ctrl-C stops the lesson and keeps what it learnt. \
            Refused (exit 65) while a game against the learner is under way or another lesson is; \
            exit 75 when a game against the learner begun at the board, or a reset, interrupts it.
            """)

    @OptionGroup var socket: SocketOptions

    @Option(help: ArgumentHelp("How many games: 1 to \(APIRequest.mostLessonGames).", valueName: "N"))
    var games: Int

    @Option(help: ArgumentHelp("The computer's level it plays against: 1 (at random) to 4 (perfect).", valueName: "LEVEL"))
    var against: Int

    func validate() throws {
        guard (1...APIRequest.mostLessonGames).contains(games) else {
            throw ValidationError("--games is \(games); a lesson is 1 to \(APIRequest.mostLessonGames) games.")
        }
        guard APIRequest.lessonLevels.contains(against) else {
            throw ValidationError("--against is \(against); give the computer's level, 1 (at random) to 4 (perfect).")
        }
    }

    func run() throws {
        let connection = try socket.connect()
        let reply: APIMessage
        do {
            reply = try connection.ask(.teach(games: games, level: against), timeout: SocketOptions.patience)
        } catch {
            printError("\(error) at \(socket.socket.shownPath).")
            throw ExitStatus.boardUnavailable
        }
        guard reply.type == .ok else {
            printError("refused: \(reply.text ?? "no reason given")")
            throw ExitStatus.refused
        }
        // Ctrl-C (or any ending signal) asks the board to stop the lesson, on a connection of its
        // own; the states then say it ended, and how far it got. So does leaving before its end
        // any other way (output that cannot be written, the board's connection lost): no lesson
        // runs on unwatched after the command that asked for it.
        let path = socket.socket
        let stop: @Sendable () -> Void = { _ = try? BoardConnection(path: path).ask(.stopTeaching, timeout: SocketOptions.patience) }
        let signals = catchEndingSignals { _ in stop() }
        defer { signals.cancel() }
        var followed = false
        defer { if !followed { stop() } }
        say("Teaching the learner \(games) \(games == 1 ? "game" : "games") against the computer at level \(against); Ctrl-C stops it, keeping what it learnt.")
        try StandardOutput.check()
        let lesson = try follow(connection)
        followed = true
        say(LessonProgress.summary(lesson) ?? "")
        if lesson.end == "interrupted" { throw ExitStatus.lessonInterrupted }
    }

    /// Reads the board's states until the lesson has ended, redrawing its bar on a terminal;
    /// the lesson as it ended.
    private func follow(_ connection: BoardConnection) throws(ExitCode) -> ViewState.Lesson {
        let drawing = isatty(STDOUT_FILENO) == 1
        while true {
            let message: APIMessage?
            do {
                message = try connection.next(timeout: SocketOptions.patience)
            } catch {
                if drawing { say("") }
                printError("\(error) at \(socket.socket.shownPath): the board went away during the lesson; what it learnt up to its last save is kept.")
                throw ExitStatus.boardUnavailable
            }
            guard let message else {
                if drawing { say("") }
                printError(connection.closedByBoard
                    ? "the board closed the connection during the lesson (it stopped, or went away); what it learnt up to its last save is kept."
                    : "the board sent nothing for \(SocketOptions.patience): is it stuck? See: systemctl status tictactoe.service")
                throw ExitStatus.boardUnavailable
            }
            guard message.type == .state, let lesson = message.state?.lesson else { continue }
            if drawing { StandardOutput.write("\r\u{1B}[K" + LessonProgress.bar(lesson)) }
            if lesson.end != nil {
                if drawing { say("") }
                return lesson
            }
        }
    }
}
