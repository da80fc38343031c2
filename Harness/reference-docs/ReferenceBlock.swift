import Foundation

/// A generated block of the documents: its name, what writes it, and how its text is made from
/// the repository (the code's own values, its files, the committed benchmark results). One
/// renderer for `make docs` and for the test that holds the documents to it.
struct ReferenceBlock: Sendable {
    var name: String
    /// The document it lives in, from the repository's root.
    var document: String
    /// What rewrites it: `make docs`, or `make bench` for figures it measures.
    var command: String
    var render: @Sendable (Repository) throws -> String

    /// Every generated block, each in exactly one document.
    static let all: [ReferenceBlock] = [
        ReferenceBlock(name: "api-limits", document: "docs/API.md", command: "make docs") { _ in APILimits.markdown },
        ReferenceBlock(name: "state-cells", document: "docs/VIEWS.md", command: "make docs") { try StateTable.markdown(pageStyles: $0.text("web/board.css")).cells },
        ReferenceBlock(name: "state-headlines", document: "docs/VIEWS.md", command: "make docs") { try StateTable.markdown(pageStyles: $0.text("web/board.css")).headlines },
        ReferenceBlock(name: "configuration-keys", document: "docs/CONFIGURATION.md", command: "make docs") { _ in ConfigurationTables.keys },
        ReferenceBlock(name: "dim-cue", document: "docs/CONFIGURATION.md", command: "make docs") { _ in ConfigurationTables.dimCue },
        ReferenceBlock(name: "wiring", document: "README.md", command: "make docs") { try WiringTable.markdown($0) },
        ReferenceBlock(name: "press-cost", document: "docs/BENCHMARKS.md", command: "make bench") { try BenchFigures(in: $0).pressCost },
        ReferenceBlock(name: "wall-time", document: "docs/BENCHMARKS.md", command: "make bench") { try BenchFigures(in: $0).wallTime },
        ReferenceBlock(name: "api-cost", document: "docs/BENCHMARKS.md", command: "make bench") { try BenchFigures(in: $0).apiCost },
        ReferenceBlock(name: "web-view", document: "docs/BENCHMARKS.md", command: "make bench") { try BenchFigures(in: $0).webView },
        ReferenceBlock(name: "two-boards", document: "docs/BENCHMARKS.md", command: "make bench") { try BenchFigures(in: $0).twoBoards },
        ReferenceBlock(name: "learner", document: "docs/BENCHMARKS.md", command: "make bench") { try BenchFigures(in: $0).learner },
    ]

    static func named(_ name: String) -> ReferenceBlock? { all.first { $0.name == name } }

    /// The documents that hold generated blocks.
    static var documents: [String] {
        var seen: Set<String> = []
        return all.map(\.document).filter { seen.insert($0).inserted }
    }
}

/// The repository the blocks are made from and written to.
struct Repository: Sendable {
    var root: URL

    func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// What each document's generated blocks should hold, against what they hold: one sentence
    /// per block that differs, is missing, is in the wrong document or is unknown. Empty when
    /// every document is as `make docs` writes it.
    func staleBlocks() -> [String] {
        var problems: [String] = []
        for document in ReferenceBlock.documents {
            let found: [GeneratedBlocks.Found]
            do {
                found = try GeneratedBlocks.blocks(in: text(document), file: document)
            } catch {
                problems.append("\(error)")
                continue
            }
            for expected in ReferenceBlock.all where expected.document == document {
                let matching = found.filter { $0.name == expected.name }
                if matching.count != 1 {
                    problems.append("\(document) has the block \(expected.name) \(matching.count) times; it should have it once")
                }
            }
            for block in found {
                guard let reference = ReferenceBlock.named(block.name), reference.document == document else {
                    problems.append("\(document), line \(block.line): no block \(block.name) belongs in this document")
                    continue
                }
                do {
                    if try reference.render(self) != block.text {
                        let source = reference.command == "make bench" ? "renders from the results make bench wrote" : "writes"
                        problems.append("\(document), line \(block.line): the block \(block.name) is not what make docs \(source)")
                    }
                } catch {
                    problems.append("\(document): the block \(block.name) could not be made: \(error)")
                }
            }
        }
        return problems
    }

    /// Rewrites every document's generated blocks; returns the documents changed.
    func rewriteBlocks() throws -> [String] {
        var changed: [String] = []
        for document in ReferenceBlock.documents {
            let old = try text(document)
            let new = try GeneratedBlocks.rewrite(old, file: document) { name in
                guard let block = ReferenceBlock.named(name), block.document == document else { return nil }
                return (block, try block.render(self))
            }
            if new != old {
                try Data(new.utf8).write(to: root.appendingPathComponent(document), options: .atomic)
                changed.append(document)
            }
        }
        return changed
    }
}
