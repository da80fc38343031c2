import ArgumentParser
import SystemdService
import TicTacToe

// The enumerated options as argument-parser reads them: each value's name written once (in the
// type), and the help's list, the check of what was given and the shell's completion made from it.

extension Opponent: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.name) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    public var defaultValueDescription: String { name }
}

extension ServiceLog.Level: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.description) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    public var defaultValueDescription: String { description }
}
