import Basics
import BoardConfiguration
#if canImport(Glibc)
import Glibc
#endif
import Presentation

/// Writes a line to standard output at once (unbuffered: logs and test harnesses read it live).
func say(_ line: String) {
    write(line, to: STDOUT_FILENO)
}

/// An error for the user, on standard error: "tictactoe: …".
func printError(_ message: String) {
    write("tictactoe: \(message)", to: STDERR_FILENO)
}

/// Writes `text` and a line break to `fd`, terminal-safe: messages echo what the user gave
/// (paths, arguments), and none of it may reach the terminal as an escape sequence, so every
/// invisible character but line breaks and tabs is spelt as its code point.
func write(_ text: String, to fd: Int32) {
    TextFile.writeAll(fd, Array((text.spellingInvisibles(except: ["\n", "\t"]) + "\n").utf8))
}
