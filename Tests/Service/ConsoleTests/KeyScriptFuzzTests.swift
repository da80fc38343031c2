import TestSupport
import Testing
@testable import Console

@Suite("Key scripts, mutated")
struct KeyScriptFuzzTests {
    /// How many mutated scripts each run reads (the figure in the closing note of issue 19).
    static let cases = 3000

    @Test("every mutation of a script is read, or refused at a key that is really there; never a crash")
    func mutated() {
        let seed = "# Alice wins on the diagonal\n7 8 5\n9 3 . n\r\n5 5 z q\n"
        var mutator = Mutator(seed: seed, randomSeed: 0x5C_2197)
        var read = 0, refused = 0
        for _ in 0..<Self.cases {
            let text = mutator.next()
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            do {
                let script = try KeyScript(parsing: text)
                read += 1
                for step in script.steps {
                    #expect(Array(lines[step.line - 1])[step.column - 1] == step.key)
                }
            } catch {
                refused += 1
                // The key named is the one at that line and column.
                #expect(error.line <= lines.count && Array(lines[error.line - 1])[error.column - 1] == error.key, "\(error)")
                let raw = error.description.unicodeScalars.contains { $0.isInvisible }
                #expect(!raw, "raw control character in: \(error.description.debugDescription)")
            }
        }
        #expect(read > 0 && refused > 0, "\(read) read, \(refused) refused")
    }
}
