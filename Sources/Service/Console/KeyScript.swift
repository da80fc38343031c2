import Basics
import ViewModel

/// A script of keys for the terminal game when standard input is not a terminal: the same keys
/// as at the keyboard, with spaces and newlines ignored and `#` starting a comment to the end of
/// the line. Lines may end in `\n`, `\r\n` (a script saved on Windows) or `\r`.
public struct KeyScript: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        public var key: Character
        public var command: KeyCommand
        public var line: Int
        public var column: Int
    }

    public var steps: [Step]

    /// Parses `text`, refusing the first unknown key with its line and column.
    public init(parsing text: String) throws(KeyScriptError) {
        var steps: [Step] = []
        // "\r\n" is one Character in Swift, so lines are split on any newline, not on "\n".
        for (lineIndex, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            for (columnIndex, key) in line.enumerated() {
                if key == "#" { break }
                if key.isWhitespace { continue }
                guard let command = KeyCommand(key: key) else {
                    throw KeyScriptError(key: key, line: lineIndex + 1, column: columnIndex + 1)
                }
                steps.append(Step(key: key, command: command, line: lineIndex + 1, column: columnIndex + 1))
            }
        }
        self.steps = steps
    }
}

/// An unknown key in a script.
public struct KeyScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    public var key: Character
    public var line: Int
    public var column: Int

    public var description: String {
        "script line \(line), column \(column): unknown key \(key.shown). Use 1–9 for cells (7 8 9 is the top row), n for new game, N to hold new game, m for the next opponent, . to wait a second, z to wait until the board sleeps, q to quit; # starts a comment."
    }
}
