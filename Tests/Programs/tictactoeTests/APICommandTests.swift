import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe simulate --serve` running in the background, as a user starts it in one terminal,
/// ready once it has logged that it is (its first frame is out, its socket listening).
final class ServedSimulation {
    let folder: String
    let socket: String
    private let process = Process()
    /// The board's log (standard output, as the service's goes to the journal).
    private let log = Pipe()

    /// - Parameters:
    ///   - socket: where to listen; by default in a new folder of its own.
    ///   - history: the contents of `history.json` in the state directory before the start.
    ///   - environment: added to the test's own (`TICTACTOE_TEST_FAULTS=1`, say).
    ///   - restarting: a stopped board (``stop(keepingFolder:)``) whose folder and memory this
    ///     one takes over, as the service restarts.
    init(socket: String? = nil, history: String? = nil, environment: [String: String] = [:], restarting: ServedSimulation? = nil) throws {
        folder = try restarting?.folder ?? Tictactoe.temporaryFolder()
        if let history {
            try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
            try Data(history.utf8).write(to: URL(fileURLWithPath: folder + "/state/history.json"))
        }
        // Traversable by another user, for the permission test.
        chmod(folder, 0o755)
        self.socket = socket ?? folder + "/board.sock"
        guard let executable = Tictactoe.executable else { throw Tictactoe.MissingExecutable() }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["simulate", "--serve", self.socket, "--state-dir", folder + "/state"]
        process.standardOutput = log
        process.standardError = log
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        try process.run()
        _ = try Self.read(log, until: "ready on")
    }

    /// What a started program has written to `log`, read until it contains `marker`; NotReady
    /// with what it did write when it ends first.
    static func read(_ log: Pipe, until marker: String) throws -> String {
        var text = ""
        while !text.contains(marker) {
            let data = log.fileHandleForReading.availableData
            guard !data.isEmpty else { throw NotReady(log: text) }
            text += String(decoding: data, as: UTF8.self)
        }
        return text
    }

    /// The board's log from here on, read until it contains `marker`.
    func log(until marker: String) throws -> String {
        try Self.read(log, until: marker)
    }

    /// Where the board keeps its memory.
    var stateDirectory: String { folder + "/state" }

    /// The board's resident memory, in KiB.
    var residentKiB: Int { residentMemoryKiB(of: process.processIdentifier) }

    /// SIGTERM, as systemd stops the service, then the exit status; the folder is removed
    /// unless `keepingFolder` (the caller's to remove then).
    @discardableResult
    func stop(keepingFolder: Bool = false) -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        if !keepingFolder { try? FileManager.default.removeItem(atPath: folder) }
        return process.terminationStatus
    }

    /// `tictactoe arguments… --socket` this board's socket.
    func run(_ arguments: [String], input: String = "") throws -> Tictactoe.Outcome {
        try Tictactoe.run(arguments + ["--socket", socket], input: .text(input))
    }

    struct NotReady: Error {
        var log: String
    }

    /// A long lesson (`learner teach`, 10,000 games against level 4: at least 20 s at its pace)
    /// started against this board, its standard output read live through a FIFO up to the line
    /// that says it began; its standard error goes to `err` in `folder`.
    func startLongLesson(errorsIn folder: String) throws -> (pid: pid_t, output: FileHandle) {
        let fifo = folder + "/teach.out"
        guard let executable = Tictactoe.executable else { throw Tictactoe.MissingExecutable() }
        guard mkfifo(fifo, 0o600) == 0 else { throw NotReady(log: "no FIFO at \(fifo): errno \(errno)") }
        // Its reading end open first (without waiting for a writer): the spawned child opens the
        // writing end before it runs, and would wait for a reader for ever.
        let readEnd = open(fifo, O_RDONLY | O_NONBLOCK)
        guard readEnd >= 0, fcntl(readEnd, F_SETFL, 0) == 0 else { throw NotReady(log: "the FIFO cannot be read: errno \(errno)") }
        let output = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true)
        let pid = try Tictactoe.start(
            ["learner", "teach", "--games", "10000", "--against", "4", "--socket", socket], program: executable, input: .text(""), output: .path(fifo),
            in: folder)
        var said = ""
        while !said.contains("Ctrl-C stops it") {
            let data = output.availableData
            guard !data.isEmpty else { break }
            said += String(decoding: data, as: UTF8.self)
        }
        return (pid, output)
    }
}

@Suite("The board's commands against simulate --serve", .serialized, .process)
struct APICommandTests {
    @Test("press, new-game and opponent: 0 when done, 65 with the reason when refused")
    func commands() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let first = try board.run(["press", "5"])
        #expect(first.status == 0)
        #expect(first.out == "X took cell 5.\n")
        let taken = try board.run(["press", "5"])
        #expect(taken.status == 65)
        #expect(taken.err == "tictactoe: refused: cell 5 is taken by X: press a free cell.\n")
        let midGame = try board.run(["new-game"])
        #expect(midGame.status == 65)
        #expect(midGame.err.contains("the game is not over"))
        #expect(try board.run(["new-game", "--abandon"]).status == 0)
        let chosen = try board.run(["opponent", "computer-4"])
        #expect(chosen.status == 0)
        #expect(chosen.out.contains("The computer at level 4 from now on."))
        let badCell = try board.run(["press", "10"])
        #expect(badCell.status == 64)
        #expect(badCell.err.contains("give 1 to 9"))
    }

    @Test("learner reset: 64 without --yes (saying how), 0 with it, 65 while a game against the learner is under way or the count of games moved on")
    func learnerReset() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let unconfirmed = try board.run(["learner", "reset"])
        #expect(unconfirmed.status == 64)
        #expect(unconfirmed.err.contains("takes --yes. Run: tictactoe learner reset --yes"), "\(unconfirmed.err)")
        #expect(unconfirmed.out.isEmpty)
        let done = try board.run(["learner", "reset", "--yes"])
        #expect(done.status == 0, "\(done.err)")
        #expect(done.out.contains("fresh"))
        // The learner starts this game (the first one was X's): its first move is under way.
        #expect(try board.run(["opponent", "learner"]).status == 0)
        let midGame = try board.run(["learner", "reset", "--yes"])
        #expect(midGame.status == 65)
        #expect(midGame.err.contains("a game against the learner is under way"), "\(midGame.err)")
        #expect(try board.run(["new-game", "--abandon"]).status == 0)
        #expect(try board.run(["opponent", "two-players"]).status == 0)
        let stale = try board.run(["learner", "reset", "--yes", "--if-games", "3"])
        #expect(stale.status == 65)
        #expect(stale.err.contains("has played 0 games, not the 3"), "\(stale.err)")
        #expect(try board.run(["learner", "reset", "--yes", "--if-games", "0"]).status == 0)
        #expect(try board.run(["learner", "reset", "--yes", "--if-games", "-1"]).status == 64)
    }

    @Test("learner teach: a lesson to its end (0, its results), refused while one runs (65), Ctrl-C stops it keeping what it learnt (0), bad arguments 64")
    func learnerTeach() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let taught = try board.run(["learner", "teach", "--games", "60", "--against", "1"])
        #expect(taught.status == 0, "\(taught.err)")
        #expect(taught.out.contains("Taught the learner 60 games against the computer at level 1 (won "), "\(taught.out)")
        #expect(try board.run(["learner", "teach", "--games", "0", "--against", "1"]).status == 64)
        #expect(try board.run(["learner", "teach", "--games", "5", "--against", "5"]).status == 64)

        // Ctrl-C once it says it began.
        let (pid, reader) = try board.startLongLesson(errorsIn: board.folder)
        let meanwhile = try board.run(["learner", "teach", "--games", "5", "--against", "1"])
        #expect(meanwhile.status == 65 && meanwhile.err.contains("in a lesson already"), "\(meanwhile.err)")
        kill(pid, SIGINT)
        let out = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0, "exit \(status >> 8), \(out)")
        #expect(out.contains("Stopped: taught the learner ") && out.contains("of the 10000 asked for; what it learnt is kept."), "\(out)")
        let json = try board.run(["status", "--json"])
        let state = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])["state"] as? [String: Any]
        let lesson = try #require(state?["lesson"] as? [String: Any]), learner = try #require(state?["learner"] as? [String: Any])
        let played = try #require(lesson["played"] as? Int)
        #expect(lesson["end"] as? String == "stopped" && played < 10_000 && learner["games"] as? Int == 60 + played, "\(lesson) \(learner)")
        #expect(out.contains("taught the learner \(played) games"), "the summary is the board's count")
    }

    @Test("learner teach that cannot write its output stops the lesson it asked for (74); one whose board stops says the board closed the connection (69)")
    func learnerTeachLeavingEarly() throws {
        let board = try ServedSimulation()
        guard let executable = Tictactoe.executable else { throw Tictactoe.MissingExecutable() }
        let unwritable = try Tictactoe.run(["learner", "teach", "--games", "10000", "--against", "4", "--socket", board.socket], program: executable, prefix: [], output: .closed)
        #expect(unwritable.status == 74, "\(unwritable.err)")
        let json = try board.run(["status", "--json"])
        let state = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])["state"] as? [String: Any]
        let lesson = try #require(state?["lesson"] as? [String: Any])
        #expect(lesson["end"] as? String == "stopped", "no lesson runs on unwatched: \(lesson)")

        // The board stopped once the lesson began.
        let errors = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let (pid, reader) = try board.startLongLesson(errorsIn: errors)
        board.stop()
        _ = reader.readDataToEndOfFile()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let err = (try? String(contentsOfFile: errors + "/err", encoding: .utf8)) ?? ""
        #expect(status >> 8 == 69 && err.contains("the board closed the connection during the lesson"), "exit \(status >> 8): \(err)")
    }

    @Test("watch --once prints the board as the simulator does; status --json has the view state and the health")
    func watchAndStatus() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        for cell in ["7", "5"] { #expect(try board.run(["press", cell]).status == 0) }
        let watched = try board.run(["watch", "--once"])
        #expect(watched.status == 0)
        #expect(watched.out.hasPrefix("   X   ·   ·\n   ·   O   ·     status LEDs: X on, O off\n   ·   ·   ·\nX to move.\n"))
        let status = try board.run(["status", "--json"])
        #expect(status.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
        let state = json?["state"] as? [String: Any]
        let health = json?["health"] as? [String: Any]
        #expect(json?["type"] as? String == "status")
        #expect(state?["cells"] as? [String] == ["X", "", "", "", "O", "", "", "", ""])
        #expect(state?["turn"] as? String == "X")
        #expect(health?["moves"] as? Int == 2)
        #expect((health?["chip"] as? [String: Any])?["label"] as? String == "tictactoe-sim")
        let human = try board.run(["status"])
        #expect(human.out.contains("2 moves since"))
    }

    @Test("watch and history into a pipe nobody reads (| head -c1, | true): 74 with the reason, not SIGPIPE")
    func closedPipe() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        for command in [["watch"], ["watch", "--once"], ["history"], ["status"]] {
            let outcome = try Tictactoe.run(command + ["--socket", board.socket], output: .brokenPipe)
            #expect(outcome.signal == nil, "\(command): killed by signal \(outcome.signal ?? 0)")
            #expect(outcome.status == 74, "\(command)")
            #expect(outcome.err.contains("cannot write to standard output: broken pipe."), "\(command): \(outcome.err)")
        }
    }

    @Test("a wedged game loop: SIGTERM ends the board within the 5 s stop deadline, exit 70, the log naming the part that did not stop",
          .timeLimit(.minutes(1)))
    func wedgedStop() throws {
        let board = try ServedSimulation(environment: ["TICTACTOE_TEST_FAULTS": "1"])
        #expect(FileManager.default.createFile(atPath: board.folder + "/state/wedge-loop", contents: nil))
        _ = try board.log(until: "test fault: wedging the game loop")
        let started = ContinuousClock.now
        let status = board.stop()
        let took = ContinuousClock.now - started
        #expect(status == 70)
        #expect(took < .seconds(8), "the stop took \(took)")
        // Read after the exit: everything it wrote is in the pipe.
        #expect(try board.log(until: "did not stop within 5 s").contains("the local API did not stop within 5 s"))
    }

    @Test("history --script N, played by simulate, ends on the board the running one showed")
    func historyReplays() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        #expect(try board.run(["history"]).out == "No finished games yet.\n")
        // Two games: a draw, then O (who starts the second) wins.
        for cell in ["7", "5", "8", "9", "1", "4", "6", "3", "2"] { #expect(try board.run(["press", cell]).status == 0) }
        let drawn = try board.run(["watch", "--once"]).out
        #expect(try board.run(["new-game"]).status == 0)
        for cell in ["1", "4", "2", "5", "3"] { #expect(try board.run(["press", cell]).status == 0) }
        let won = try board.run(["watch", "--once"]).out
        let listed = try board.run(["history"])
        #expect(listed.out.split(separator: "\n").count == 2)
        #expect(listed.out.contains("O won in 5 moves"))
        for (number, shown) in [(1, won), (2, drawn)] {
            let script = try board.run(["history", "--script", "\(number)"])
            #expect(script.status == 0)
            let replayed = try Tictactoe.run(["simulate"], input: .text(script.out))
            #expect(replayed.status == 0)
            let finalBoard = replayed.out.split(separator: "\n").suffix(5).prefix(4)
            #expect(Array(finalBoard) == Array(shown.split(separator: "\n").prefix(4)), "game \(number)")
        }
        let missing = try board.run(["history", "--script", "3"])
        #expect(missing.status == 65)
        #expect(missing.err.contains("there is no game 3"))
    }

    @Test("a hostile history file (a carried-over board of 3 cells, a line break in a name) is set aside at start: no crash, nothing raw shown")
    func hostileHistory() throws {
        let game = """
            {"opponent":"two-players","names":{"x":"Eve\\nerror: forged","o":"Bob"},"starter":"X",\
            "started":"2026-11-23T22:41:05Z","finished":"2026-11-23T22:42:00Z","outcome":"x-wins","carriedOver":["X","O",""],\
            "moves":[{"cell":9,"player":"X","at":"2026-11-23T22:41:05Z"}]}
            """
        let board = try ServedSimulation(history: #"{"version":1,"games":["# + game + "]}")
        defer { board.stop() }
        let script = try board.run(["history", "--script", "1"])
        #expect(script.signal == nil, "crashed")
        #expect(script.status == 65 && script.err.contains("there is no game 1: the board's answer holds 0"), "\(script.err)")
        #expect(try board.run(["history"]).out == "No finished games yet.\n")
        let kept = try FileManager.default.contentsOfDirectory(atPath: board.folder + "/state")
        #expect(kept.contains { $0.hasPrefix("history.json.corrupt-") }, "\(kept)")
    }

    @Test("no board listening: 69, naming the socket and systemctl status; after SIGTERM the socket is gone")
    func nobodyListening() throws {
        let board = try ServedSimulation()
        #expect(board.stop() == 0)
        let outcome = try Tictactoe.run(["press", "5", "--socket", board.socket])
        #expect(outcome.status == 69)
        #expect(outcome.err.contains(board.socket))
        #expect(outcome.err.contains("systemctl status"))
        #expect(!FileManager.default.fileExists(atPath: board.socket))
    }

    @Test("not allowed on the socket: 77, naming the tictactoe group")
    func permissionDenied() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        // Only the owner may connect; root is allowed anything, so as root the command runs as
        // nobody.
        chmod(board.socket, 0o600)
        let outcome: Tictactoe.Outcome
        if getuid() == 0 {
            guard let executable = Tictactoe.executable else { throw Tictactoe.MissingExecutable() }
            outcome = try Tictactoe.run(
                ["press", "5", "--socket", board.socket], program: "/usr/bin/setpriv",
                prefix: ["--reuid=65534", "--regid=65534", "--clear-groups", executable])
        } else {
            chmod(board.socket, 0o000)
            outcome = try Tictactoe.run(["press", "5", "--socket", board.socket])
        }
        #expect(outcome.status == 77)
        #expect(outcome.err.contains("tictactoe group"))
    }
}
