import Basics
import TestSupport
import Testing
@testable import BoardConfiguration

@Suite("Configuration files, mutated")
struct ConfigurationFuzzTests {
    /// How many mutated files each run reads (the figure in the closing note of issue 19).
    static let cases = 3000

    @Test("every mutation of the default file is read or refused with its file, line and key; never a crash or hang", .soak)
    func mutated() {
        var mutator = Mutator(seed: ConfigurationSchema.defaultFile, randomSeed: 0xC0F1_6)
        var read = 0, refused = 0
        for _ in 0..<Self.cases {
            let text = mutator.next()
            do {
                _ = try Configuration.parse(text, file: "fuzz.toml")
                read += 1
            } catch {
                refused += 1
                let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
                #expect(error.description.hasPrefix("fuzz.toml"), "\(error)")
                #expect(error.line.map { (1...max(lines, 1)).contains($0) } ?? true, "line \(error.line ?? 0) of \(lines): \(error)")
                let raw = error.description.unicodeScalars.contains { $0.isInvisible }
                #expect(!raw, "raw control character in: \(error.description.debugDescription)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(read + refused == Self.cases)
        #expect(read > 0 && refused > Self.cases / 2, "the mutations do not exercise both paths: \(read) read, \(refused) refused")
    }
}
