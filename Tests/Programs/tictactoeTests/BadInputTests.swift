import Foundation
import TestSupport
import Testing
import TicTacToe

/// One way to hand the program bad input, and what it must do: the documented exit status and a
/// sentence naming what is wrong.
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let arguments: [String]
    let input: Tictactoe.Input
    let status: Int32
    /// Text the message on standard error must contain.
    let says: String
    var testDescription: String { name }

    let output: Tictactoe.Output

    init(
        _ name: String, _ arguments: [String], input: Tictactoe.Input = .text(""), output: Tictactoe.Output = .captured,
        status: Int32, says: String
    ) {
        self.name = name
        self.arguments = arguments
        self.input = input
        self.output = output
        self.status = status
        self.says = says
    }
}

extension Tictactoe.Input: @unchecked Sendable {}
extension Tictactoe.Output: @unchecked Sendable {}

private let escape = "\u{1B}[2J"

/// The sweep that found these, kept: every command, hostile text and out-of-range numbers.
private let badInputs: [BadInput] = [
    BadInput("a directory on standard input", ["simulate"], input: .path("/tmp"), status: 74,
             says: "standard input: cannot read the file: is a directory"),
    BadInput("standard input closed", ["simulate"], input: .closed, status: 74, says: "standard input: cannot read"),
    BadInput("standard input open for writing only", ["simulate"], input: .writeOnly("/dev/null"), status: 74,
             says: "standard input: cannot read"),
    BadInput("an idle time past the configuration's range", ["simulate", "--idle-sleep", "9223372036"], status: 64,
             says: "--idle-sleep is 9223372036 s; it must be between 10 and 86400. It sets timings.idle_sleep_s."),
    BadInput("a negative idle time", ["simulate", "--idle-sleep", "-1"], status: 64, says: "--idle-sleep is -1 s; it must be between 10 and 86400."),
    BadInput("an idle time that is not a number", ["simulate", "--idle-sleep", "soon"], status: 64, says: "--idle-sleep"),
    BadInput("an idle time out of range for run", ["run", "--idle-sleep", "9223372036"], status: 64, says: "--idle-sleep is 9223372036 s"),
    BadInput("an opponent that does not exist", ["simulate", "--opponent", "computer-9"], status: 64,
             says: "The value 'computer-9' is invalid for '--opponent <opponent>'. Please provide one of the following:\n  - two-players\n  - computer-1"),
    BadInput("an escape sequence in a name", ["simulate", "--x-name", "Eve\(escape)"], status: 64,
             says: "--x-name must be a name of at most 32 characters (128 bytes) on one line, without control characters."),
    BadInput("a 100 KiB name", ["simulate", "--o-name", String(repeating: "O", count: 100 * 1024)], status: 64,
             says: "--o-name must be a name of at most 32 characters"),
    BadInput("a script with Windows line endings and an unknown key", ["simulate"], input: .text("# first\r\n5 1\r\n9 x\r\n"), status: 65,
             says: "script line 3, column 3: unknown key 'x'."),
    BadInput("an escape sequence in a script", ["simulate"], input: .text("5 \(escape)"), status: 65,
             says: "script line 1, column 3: unknown key U+001B."),
    BadInput("a bidirectional override in a script", ["simulate"], input: .text("5\n\u{202E}1"), status: 65,
             says: "script line 2, column 1: unknown key U+202E."),
    BadInput("an unknown subcommand", ["frobnicate"], status: 64, says: "tictactoe <subcommand>"),
    BadInput("an escape sequence in an unknown argument", ["simulate", "--bogus\(escape)"], status: 64, says: "--bogusU+001B[2J"),
    BadInput("an escape sequence in a configuration path", ["check-config", "/nonexistent/\(escape).toml"], status: 78,
             says: "/nonexistent/U+001B[2J.toml: cannot read the file"),
    BadInput("no folder to write the hardware documents into", ["hardware-docs", "--output", ""], status: 64,
             says: "--output is empty; name the folder to write into"),
    BadInput("a script played onto a full disk", ["simulate"], input: .text("5 1 9"), output: .path("/dev/full"), status: 74,
             says: "cannot write to standard output: no space left on device."),
    BadInput("the default configuration printed onto a full disk", ["check-config", "--print-default"], output: .path("/dev/full"),
             status: 74, says: "cannot write to standard output: no space left on device."),
    BadInput("the version printed with standard output closed", ["--version"], output: .closed, status: 74,
             says: "cannot write to standard output: bad file descriptor."),
    BadInput("the default configuration printed into a pipe nobody reads (| head -c1)", ["check-config", "--print-default"],
             output: .brokenPipe, status: 74, says: "cannot write to standard output: broken pipe."),
    BadInput("the version printed into a pipe nobody reads", ["--version"], output: .brokenPipe, status: 74,
             says: "cannot write to standard output: broken pipe."),
    BadInput("a negative real-time priority", ["run", "--realtime-priority", "-1"], status: 64,
             says: "--realtime-priority is -1; give 0 (normal scheduling) or a priority from 1 to 99."),
    BadInput("a real-time priority that is no number", ["run", "--realtime-priority", "1e9"], status: 64,
             says: "give 0 (normal scheduling) or a priority from 1 to 99."),
    BadInput("an idle time past any whole number", ["simulate", "--idle-sleep", "99999999999999999999"], status: 64,
             says: "give a whole number of seconds, 10–86400 s."),
    BadInput("an empty log level", ["run", "--log-level", ""], status: 64,
             says: "The value '' is invalid for '--log-level <log-level>'. Please provide one of the following:\n  - debug\n  - info"),
    BadInput("a line break in a chip's name", ["run", "--chip", "gpio\nchip", "--realtime-priority", "0", "--state-dir", "/nonexistent/state"],
             status: 69, says: "no GPIO chip matches \"gpioU+000Achip\""),
    BadInput("a 10,000-character configuration path", ["check-config", "/tmp/" + String(repeating: "a", count: 10_000)], status: 78,
             says: "/tmp/" + String(repeating: "a", count: 195) + "…: cannot read the file"),
    BadInput("a folder that takes no new files for the hardware documents", ["hardware-docs", "--output", "/proc"], status: 73,
             says: "/proc/wiring.svg: cannot write the file: its folder takes no new files (as /proc and /sys do not). Give an existing, writable --output folder."),
    BadInput("a configuration that is a directory", ["check-config", "/tmp"], status: 78, says: "/tmp: cannot read the file: it is a directory"),
    BadInput("a configuration that is a device", ["check-config", "/dev/null"], status: 78, says: "/dev/null: cannot read the file"),
    BadInput("a missing configuration for run", ["run", "--config", "/nonexistent/tictactoe.toml"], status: 78,
             says: "/nonexistent/tictactoe.toml: cannot read the file"),
    BadInput("a game number past any integer for history", ["history", "--script=-9223372036854775808"], status: 64,
             says: "--script is -9223372036854775808; give a game's number, from 1 (the latest) to 100."),
    BadInput("game 0 for history", ["history", "--script", "0"], status: 64, says: "--script is 0; give a game's number"),
    BadInput("an empty socket path for run", ["run", "--socket", ""], status: 64,
             says: "--socket is empty; give the path of the socket to make"),
    BadInput("an empty state directory for run", ["run", "--state-dir", ""], status: 64,
             says: "--state-dir is empty; give the directory where the game is kept"),
    BadInput("a socket in a folder that does not exist", ["run", "--socket", "/nonexistent/\(escape)/board.sock"], status: 64,
             says: "--socket is /nonexistent/U+001B[2J/board.sock, but /nonexistent/U+001B[2J is no directory"),
    BadInput("a socket path too long for a socket", ["run", "--socket", "/tmp/" + String(repeating: "s", count: 200)], status: 64,
             says: "--socket is 205 bytes long"),
    BadInput("a socket path naming a file", ["run", "--socket", "/etc/hostname"], status: 64,
             says: "--socket is /etc/hostname, which is there and is not a socket"),
    BadInput("an empty socket path for simulate --serve", ["simulate", "--serve", ""], status: 64, says: "--serve is empty"),
    BadInput("an empty state directory for simulate --serve", ["simulate", "--serve", "/tmp/x.sock", "--state-dir", ""], status: 64,
             says: "--state-dir is empty"),
    BadInput("an empty state directory for check-state (it read / before)", ["check-state", "--state-dir", ""], status: 64,
             says: "--state-dir is empty"),
    BadInput("a missing chip for lights-off", ["lights-off", "--chip", "/nonexistent/gpiochip9"], status: 69, says: "/nonexistent/gpiochip9"),
]

@Suite("Bad input to the command: a sentence, its exit status, nothing half-done", .process)
struct BadInputTests {
    @Test("each case", arguments: badInputs)
    func badInput(_ bad: BadInput) throws {
        let outcome = try Tictactoe.run(bad.arguments, input: bad.input, output: bad.output)
        #expect(outcome.signal == nil, "crashed")
        #expect(outcome.status == bad.status)
        #expect(outcome.err.contains(bad.says), "stderr: \(outcome.err.prefix(600))")
        #expect(!(outcome.out + outcome.err).unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "hostile text reached the terminal raw")
        #expect(outcome.err.utf8.count < 4096, "the message repeats the input back at length")
    }

    @Test("a script with Windows line endings plays like one with plain ones")
    func windowsLineEndings() throws {
        let plain = try Tictactoe.run(["simulate"], input: .text("# a game\n7 8 5\n9 3\n"))
        let windows = try Tictactoe.run(["simulate"], input: .text("# a game\r\n7 8 5\r\n9 3\r\n"))
        #expect(plain.status == 0)
        #expect(plain.out.contains("X wins along the diagonal from top left!"))
        #expect(windows.status == 0)
        #expect(windows.out == plain.out)
    }

    @Test("run finds out that the chip is missing before it creates or moves anything")
    func runCreatesNothing() throws {
        let folder = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/new/state"
        let fresh = try Tictactoe.run(["run", "--chip", "/nonexistent/gpiochip9", "--state-dir", missing, "--realtime-priority", "0"])
        #expect(fresh.status == 69)
        #expect(!FileManager.default.fileExists(atPath: folder + "/new"), "the state directory was created")

        let corrupt = folder + "/state.json"
        try Data("{\"version\": 1, \"cells\": [".utf8).write(to: URL(fileURLWithPath: corrupt))
        let withCorruptState = try Tictactoe.run(["run", "--chip", "/nonexistent/gpiochip9", "--state-dir", folder, "--realtime-priority", "0"])
        #expect(withCorruptState.status == 69)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"], "the corrupt state was moved")
    }

    @Test("run with a socket it cannot make stops before the state is read, moved or saved")
    func badSocketTouchesNoState() throws {
        let folder = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corrupt = Data("{\"version\": 1, \"cells\": [".utf8)
        try corrupt.write(to: URL(fileURLWithPath: folder + "/state.json"))
        for socket in [folder + "/missing/board.sock", folder + "/state.json", ""] {
            let outcome = try Tictactoe.run(["run", "--socket", socket, "--state-dir", folder, "--realtime-priority", "0"])
            #expect(outcome.status == 64, "\(outcome.err)")
            #expect(outcome.err.contains("--socket is"), "\(outcome.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"], "the state directory was touched")
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/state.json")) == corrupt)
        }
    }

    @Test("random scripts from a fixed seed: played (0) or refused at the first unknown key (65); never a crash")
    func randomScripts() throws {
        var random = SeededRandom(seed: 0x7ac7_0e)
        // Keys, spaces, comments and line endings, with hostile and foreign characters among them.
        let alphabet: [String] = Array("123456789nN.q #").map(String.init)
            + ["\n", "\r\n", "\r", "\t", "x", "Z", "é", "\u{1B}", "\u{0}", "\u{7F}", "\u{202E}", "🙂"]
        for _ in 0..<40 {
            let length = Int(random.next() % 40)
            let script = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            let outcome = try Tictactoe.run(["simulate", "--idle-sleep", "10"], input: .text(script))
            let shown = script.debugDescription
            #expect(outcome.signal == nil, "crashed on \(shown)")
            #expect(!(outcome.out + outcome.err).unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F || $0.value == 0x202E },
                    "raw control character echoed for \(shown)")
            switch outcome.status {
            case 0:
                let lines = outcome.out.split(separator: "\n")
                #expect(lines.last?.hasPrefix("score: ") == true, "\(shown)")
                #expect(outcome.err.isEmpty, "\(shown): \(outcome.err)")
            case 65:
                #expect(outcome.err.hasPrefix("tictactoe: script line "), "\(shown): \(outcome.err)")
                #expect(outcome.out.isEmpty, "played part of a script it then refused: \(shown)")
            default:
                Issue.record("exit \(outcome.status) for \(shown): \(outcome.err)")
            }
        }
    }
}
