import BoardConfiguration
#if canImport(Glibc)
import Glibc
#endif
import Presentation

/// Writes a line to standard output at once (unbuffered: logs and test harnesses read it live).
func say(_ line: String) {
    TextFile.writeAll(STDOUT_FILENO, Array((terminalSafe(line) + "\n").utf8))
}

/// An error for the user, on standard error: "tictactoe: …".
func printError(_ message: String) {
    TextFile.writeAll(STDERR_FILENO, Array("tictactoe: \(terminalSafe(message))\n".utf8))
}

/// `text` with every control or invisible character but line breaks and tabs spelt as its code
/// point: messages echo what the user gave (paths, arguments), and none of it may reach the
/// terminal as an escape sequence.
func terminalSafe(_ text: String) -> String {
    var safe = ""
    for scalar in text.unicodeScalars {
        if scalar.isInvisible && scalar != "\n" && scalar != "\t" { safe += scalar.codePoint } else { safe.unicodeScalars.append(scalar) }
    }
    return safe
}
