import Foundation
import FuzzTargets
import TestSupport
import Testing

/// The committed corpus (fuzz/corpus/TARGET/): the seeds `make fuzz` starts from, and every input
/// a fuzz run found a fault with (named `regression-…`), replayed through its target on every
/// test run, so that a fault fixed stays fixed.
@Suite struct CorpusTests {
    static let corpus = repositoryRoot.appendingPathComponent("fuzz/corpus")

    static func inputs(of target: String) -> [URL] {
        let folder = corpus.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("every target has seeds, and every corpus folder a target", arguments: FuzzTargets.names)
    func seeded(target: String) throws {
        #expect(Self.inputs(of: target).count >= 3, "fuzz/corpus/\(target) needs seeds: inputs the target accepts, and some it refuses")
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(FuzzTargets.names), "fuzz/corpus holds a folder per target, named as the target")
    }

    @Test("every input of the corpus keeps its target's properties", arguments: FuzzTargets.names)
    func replayed(target name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        for input in Self.inputs(of: name) {
            let bytes = try [UInt8](Data(contentsOf: input))
            #expect(target.check(bytes) == nil, "fuzz/corpus/\(name)/\(input.lastPathComponent)")
        }
    }
}
