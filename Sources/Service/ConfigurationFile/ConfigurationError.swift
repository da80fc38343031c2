import Basics

/// A problem with a configuration file: which file and line, which key, and what to do.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// The key at fault, as `table.key`; empty for a syntax error.
    public var key: String
    public var message: String

    public init(file: String, line: Int?, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `FILE, line N: message`, the message naming the key and what to do.
    public var description: String {
        let place = line.map { "\(file.shownPath), line \($0)" } ?? file.shownPath
        return "\(place): \(message)"
    }
}
