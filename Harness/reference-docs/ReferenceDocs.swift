import Foundation

/// `make docs`: rewrites every generated block of the documents from what it documents (the
/// blocks: ``ReferenceBlock/all``). `--check` rewrites nothing and exits 1 naming each block
/// that differs, as the test does.
///
///     reference-docs [--check] [ROOT]     ROOT: the repository, by default the current folder
@main
enum ReferenceDocs {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let check = arguments.first == "--check"
        if check { arguments.removeFirst() }
        guard arguments.count <= 1, !(arguments.first?.hasPrefix("-") ?? false) else {
            FileHandle.standardError.write(Data("usage: reference-docs [--check] [ROOT]\n".utf8))
            exit(64)
        }
        let repository = Repository(root: URL(fileURLWithPath: arguments.first ?? FileManager.default.currentDirectoryPath))
        do {
            if check {
                let stale = repository.staleBlocks()
                for problem in stale { print(problem) }
                if !stale.isEmpty {
                    print("run make docs")
                    exit(1)
                }
                print("every generated block is up to date")
            } else {
                let changed = try repository.rewriteBlocks()
                print(changed.isEmpty ? "every generated block was up to date" : "rewrote generated blocks in \(changed.joined(separator: ", "))")
                let stale = repository.staleBlocks()
                for problem in stale { print(problem) }
                if !stale.isEmpty { exit(1) }
            }
        } catch {
            FileHandle.standardError.write(Data("reference-docs: \(error)\n".utf8))
            exit(1)
        }
    }
}
