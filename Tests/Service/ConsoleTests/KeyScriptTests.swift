import TicTacToe
import Testing
@testable import Console

@Suite("Keys and scripts")
struct KeyScriptTests {
    @Test("keys 1–9 follow a numeric keypad: 7 8 9 is the top row")
    func keypad() {
        let expected: [Character: (Int, Int)] = [
            "7": (0, 0), "8": (0, 1), "9": (0, 2), "4": (1, 0), "5": (1, 1), "6": (1, 2), "1": (2, 0), "2": (2, 1), "3": (2, 2),
        ]
        for (key, (row, column)) in expected {
            #expect(KeyCommand(key: key) == .cell(Position(row: row, column: column)!))
            #expect(KeyCommand.key(for: Position(row: row, column: column)!) == key)
        }
        #expect(KeyCommand(key: "0") == nil)
        #expect(KeyCommand(key: "n") == .newGame)
        #expect(KeyCommand(key: "N") == .holdNewGame)
        #expect(KeyCommand(key: "q") == .quit)
    }

    @Test("scripts ignore spaces, newlines and comments")
    func parse() throws {
        let script = try KeyScript(parsing: "5 1\n# a comment 9 9\n  9n # trailing\n")
        #expect(script.steps.map(\.key) == ["5", "1", "9", "n"])
        #expect(script.steps[2].line == 3 && script.steps[2].column == 3)
    }

    @Test("an unknown key is refused with its line and column")
    func unknownKey() {
        #expect(throws: KeyScriptError(key: "x", line: 2, column: 3)) {
            try KeyScript(parsing: "5 1\n9 x")
        }
        #expect(KeyScriptError(key: "x", line: 2, column: 3).description.hasPrefix("script line 2, column 3: unknown key 'x'."))
    }
}
