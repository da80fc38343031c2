import Foundation
@testable import reference_docs
import Testing
import TestSupport

/// Generated = committed: every block between `<!-- begin generated: … -->` and
/// `<!-- end generated -->` in the documents is exactly what `make docs` writes from what it
/// documents (the code's values, its files, the committed benchmark results), so a document
/// cannot say one thing while the code does another.
@Suite("The documents' generated blocks")
struct ReferenceDocsTests {
    let repository = Repository(root: repositoryRoot)

    @Test("every generated block in docs/ and README.md is what make docs writes")
    func upToDate() {
        let stale = repository.staleBlocks()
        #expect(stale.isEmpty, "run make docs: \(stale.joined(separator: "; "))")
    }

    @Test("rewriting the documents changes nothing, and a block edited by hand is found and put back")
    func rewriteIsIdempotent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reference-docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in ReferenceBlock.documents + ["web/board.css", "Hardware/tictactoe.toml", "Benchmarks/budgets.txt"]
            + BenchResultsFiles.present(in: repository) {
            let target = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repository.text(path).utf8).write(to: target)
        }
        let copy = Repository(root: folder)
        #expect(try copy.rewriteBlocks().isEmpty, "run make docs")
        // A figure changed by hand in a block is found, and make docs puts it back.
        let limits = try copy.text("docs/API.md")
        try Data(limits.replacingOccurrences(of: "At most 32 clients", with: "At most 33 clients").utf8)
            .write(to: folder.appendingPathComponent("docs/API.md"))
        #expect(copy.staleBlocks().contains { $0.contains("api-limits") })
        #expect(try copy.rewriteBlocks() == ["docs/API.md"])
        #expect(try copy.text("docs/API.md") == limits)
    }

    @Test("the markers are read strictly: an unknown block, a block never ended and one inside another are errors")
    func markers() throws {
        let block = try #require(ReferenceBlock.named("api-limits"))
        let begin = GeneratedBlocks.beginMarker(block), end = GeneratedBlocks.endMarker
        let found = try GeneratedBlocks.blocks(in: "prose\n\(begin)\nold\n\(end)\nmore\n", file: "x.md")
        #expect(found == [GeneratedBlocks.Found(name: "api-limits", text: "old\n", line: 2)])
        #expect(throws: GeneratedBlocks.MarkerError.self) { try GeneratedBlocks.blocks(in: "\(begin)\nold\n", file: "x.md") }
        #expect(throws: GeneratedBlocks.MarkerError.self) { try GeneratedBlocks.blocks(in: "\(begin)\n\(begin)\n\(end)\n", file: "x.md") }
        #expect(throws: GeneratedBlocks.MarkerError.self) { try GeneratedBlocks.blocks(in: "\(end)\n", file: "x.md") }
        let unknown = "<!-- begin generated: no-such-block (make docs) -->\n\(end)\n"
        #expect(throws: GeneratedBlocks.MarkerError.self) { try GeneratedBlocks.rewrite(unknown, file: "x.md") { _ in nil } }
        let rewritten = try GeneratedBlocks.rewrite("a\n\(begin)\nold\n\(end)\nb\n", file: "x.md") { _ in (block, "new\n") }
        #expect(rewritten == "a\n\(begin)\nnew\n\(end)\nb\n")
    }

    @Test("each block lives in one document, and every document names only its own blocks")
    func everyBlockPlaced() {
        let names = ReferenceBlock.all.map(\.name)
        #expect(Set(names).count == names.count, "a block name is used twice: \(names)")
        #expect(!ReferenceBlock.documents.isEmpty)
    }

    @Test("the figures are rendered from the results files: numbers grouped, times in their unit")
    func formats() {
        #expect(Format.grouped(10028) == "10,028")
        #expect(Format.grouped(555) == "555")
        #expect(Format.grouped(1_234_567) == "1,234,567")
        #expect(Format.nanoseconds(1222) == "1,222 ns")
        #expect(Format.nanoseconds(231_400) == "231 µs")
        #expect(Format.ratio(2.5612) == "2.56×")
        #expect(Format.percent(0.342) == "34.2 %")
    }
}

/// The results files committed under `Benchmarks/results/`.
enum BenchResultsFiles {
    static func present(in repository: Repository) -> [String] {
        ["instructions.json", "game-loop.json", "learner.json", "web-page.json", "network.json"]
            .map { BenchResults.folder + "/" + $0 }
            .filter(repository.exists)
    }
}
