import Basics
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A levelled log for the service, one line per message on standard output.
///
/// Under systemd, standard output is a stream into the journal (`JOURNAL_STREAM` names it), and
/// journald reads a leading `<N>` as the line's syslog priority (sd-daemon(3)); each line then
/// starts with its level's priority so that `journalctl -p warning` finds warnings. On a terminal
/// or a pipe the same line starts with the level's name instead.
///
/// ## Contract
/// - Thread-safe: each message is one `write(2)` of a whole line, so lines from different threads
///   never interleave (a pipe keeps writes up to `PIPE_BUF` whole; longer ones are cut first).
/// - Messages below ``level`` are dropped without building their text (the message is an
///   autoclosure).
/// - Invisible characters in a message (line breaks, escapes, bidirectional overrides: paths,
///   names and saved text come from outside) are spelt as code points, as in the program's
///   messages: one message, one journal entry, and no escape sequence reaches a terminal that
///   shows the journal.
/// - Never blocks the caller on a full pipe for ever: a failed write is dropped, not retried.
public struct ServiceLog: Sendable {
    /// A message's importance, ordered from least to most; the raw value is its syslog priority.
    public enum Level: Int32, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case debug = 7, info = 6, notice = 5, warning = 4, error = 3, critical = 2

        /// The level's name as the command line takes it.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            }
        }

        /// The level with that name, or `nil`.
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue > rhs.rawValue }
    }

    /// How a line shows its level.
    public enum Prefix: Sendable, Equatable {
        /// `<6>`: for the journal, which turns it into the entry's priority.
        case syslogPriority
        /// `info: `: for a person reading a terminal or a file.
        case levelName
    }

    /// The least important level written.
    public let level: Level
    public let prefix: Prefix
    private let sink: @Sendable (String) -> Void

    /// A log to standard output, prefixed for the journal when standard output is the journal
    /// stream systemd set up for this process.
    public init(level: Level, environment: [String: String]) {
        let journal = Self.standardOutputIsJournal(journalStream: environment["JOURNAL_STREAM"])
        self.init(level: level, prefix: journal ? .syslogPriority : .levelName) { line in
            var bytes = Array(line.utf8)
            _ = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress, buffer.count)
            }
        }
    }

    /// A log that hands each whole line (with its newline) to `sink`: for tests.
    public init(level: Level, prefix: Prefix, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.prefix = prefix
        self.sink = sink
    }

    /// The line `message` makes at `level`, or `nil` when the level is below ``level``.
    public func line(_ level: Level, _ message: String) -> String? {
        guard level >= self.level else { return nil }
        var line = switch prefix {
        case .syslogPriority: "<\(level.rawValue)>"
        case .levelName: "\(level): "
        }
        var bytes = line.utf8.count
        for scalar in message.spellingInvisibles().unicodeScalars {
            let width = UTF8.width(scalar)
            // Cut on a scalar boundary, leaving room for the ellipsis (3 bytes) and the newline.
            if bytes + width > Self.longestLine - 4 {
                line += "…"
                break
            }
            line.unicodeScalars.append(scalar)
            bytes += width
        }
        return line + "\n"
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= self.level, let line = line(level, message()) else { return }
        sink(line)
    }

    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func critical(_ message: @autoclosure () -> String) { log(.critical, message()) }

    /// Lines stay below the size a pipe writes whole (`PIPE_BUF` is 4096 on Linux).
    static let longestLine = 4000

    /// Whether standard output is the stream `JOURNAL_STREAM` ("device:inode") names.
    static func standardOutputIsJournal(journalStream: String?) -> Bool {
        guard let journalStream else { return false }
        let parts = journalStream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDOUT_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
