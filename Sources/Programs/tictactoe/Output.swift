import ArgumentParser
import Basics
import BoardConfiguration
#if canImport(Glibc)
import Glibc
#endif
import ViewModel
import Reactive
import StandardStreams

/// Writes a line to standard output at once (unbuffered: logs and test harnesses read it live).
func say(_ line: String) {
    write(line, to: STDOUT_FILENO)
}

/// Whether everything meant for standard output reached it. A failed write (a full disk,
/// standard output closed) is remembered, nothing more is written there, and the command ends
/// with ``check()``'s message and exit status 74 instead of a silent success.
enum StandardOutput {
    /// A standard output closed by the parent (held on /dev/null by StandardStreams) fails as
    /// writing to a closed descriptor does.
    private static let failure = Protected<Int32?>(standard_stream_was_closed(STDOUT_FILENO) != 0 ? EBADF : nil)

    /// Writes `text` exactly as given, unless an earlier write failed.
    static func write(_ text: String) {
        guard failure.value == nil else { return }
        if !TextFile.writeAll(STDOUT_FILENO, Array(text.utf8)) {
            let number = errno
            failure.withValue { $0 = $0 ?? number }
        }
    }

    /// Throws exit status 74, having said why, when a write to standard output failed.
    static func check() throws(ExitCode) {
        guard let number = failure.value else { return }
        printError("cannot write to standard output: \(TextFile.describeErrno(number)). Nothing more was written; send the output somewhere with room.")
        throw ExitStatus.inputError
    }
}

/// An error for the user, on standard error: "tictactoe: …".
func printError(_ message: String) {
    write("tictactoe: \(message)", to: STDERR_FILENO)
}

/// Writes `text` and a line break to `fd`, terminal-safe: messages echo what the user gave
/// (paths, arguments), and none of it may reach the terminal as an escape sequence, so every
/// invisible character but line breaks and tabs is spelt as its code point.
func write(_ text: String, to fd: Int32) {
    let line = text.spellingInvisibles(except: ["\n", "\t"]) + "\n"
    if fd == STDOUT_FILENO { StandardOutput.write(line) } else { TextFile.writeAll(fd, Array(line.utf8)) }
}
