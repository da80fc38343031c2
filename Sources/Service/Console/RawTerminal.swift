#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the terminal in raw mode (keys arrive one by one, unechoed), on the alternate screen
/// with the cursor hidden, and puts it all back on ``restore()``.
final class RawTerminal: @unchecked Sendable {
    private var original = termios()
    private var active = false

    /// `true` when standard input is a terminal.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    func enable() {
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        var raw = original
        // No line buffering, no echo, no signals from Ctrl-C (read as a key and quit cleanly).
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        active = true
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    func restore() {
        guard active else { return }
        active = false
        Self.write("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    /// Reads one key, or `nil` at end of input.
    func readKey() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    static func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
