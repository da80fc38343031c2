import Foundation
import TestSupport
import Testing

/// The repository's own facts held to one another: the module graph (manifest, its comment,
/// the imports in `Sources/` and `docs/ARCHITECTURE.md`) and the version.
private let repository = repositoryRoot

private func text(_ path: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
}

private func matches(_ pattern: String, in text: String) -> [[String]] {
    guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators, .anchorsMatchLines]) else {
        return []
    }
    return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
        (0..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}

/// Module → the modules of ours it depends on.
private typealias Graph = [String: Set<String>]

/// The manifest's Swift targets under `Sources/` and their dependencies on our own modules.
private func manifestGraph() throws -> Graph {
    let manifest = try text("Package.swift")
    var graph: Graph = [:]
    for match in matches(#"\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?([^\n]*)"#, in: manifest) {
        let name = match[1]
        guard !match[3].contains("path: \"Tests/") else { continue }  // TestSupport lives in Tests/
        graph[name] = Set(matches(#"(?<![\w.])"([A-Za-z-]+)""#, in: match[2]).map { $0[1] })
    }
    let sources = Set(graph.keys)
    return graph.mapValues { $0.intersection(sources) }
}

/// What the sources of each module import of ours.
private func importGraph(modules: Set<String>) throws -> Graph {
    var graph: Graph = [:]
    let targets = try declaredProducts()
    for module in modules {
        let folder = repository.appendingPathComponent(targets[module]?.folder ?? "Sources/\(module)")
        var imported: Set<String> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" || file.pathExtension == "c" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in matches(#"^(?:@testable )?import (\w+)$"#, in: source) { imported.insert(match[1]) }
            if file.pathExtension == "c" { imported.formUnion(modules.filter { source.contains("<\($0)") }) }
        }
        graph[module] = imported.intersection(modules)
    }
    return graph
}

/// The architecture document's module table, in its "Modules" section: rows
/// `| `Module` | what it is | A, B |`.
private func architectureGraph() throws -> Graph {
    var graph: Graph = [:]
    let document = try text("docs/ARCHITECTURE.md")
    guard let start = document.range(of: "\n## Modules\n") else { return [:] }
    let section = document[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
    for match in matches(#"^\| `([\w-]+)` \| [^|\n]+ \| ([^|\n]+) \|$"#, in: section) {
        let dependencies = match[2].trimmingCharacters(in: .whitespaces)
        graph[match[1]] = dependencies == "—" ? [] : Set(dependencies.components(separatedBy: ", ").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "` "))
        })
    }
    return graph
}

/// The toolchain's own modules: what a target may import without declaring it.
private let toolchainModules: Set<String> = [
    "Swift", "Glibc", "Musl", "Darwin", "Dispatch", "Foundation", "FoundationEssentials", "FoundationNetworking", "Synchronization",
    "Testing", "XCTest",
]

/// Every target (under `Sources/` or `Tests/`) → the folder of its sources and the products of
/// other packages it declares.
private func declaredProducts() throws -> [String: (folder: String, products: Set<String>)] {
    var targets: [String: (folder: String, products: Set<String>)] = [:]
    let pattern = #"\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[((?:[^\[\]]|\[[^\]]*\])*)\])?([^\n]*)"#
    for match in matches(pattern, in: try text("Package.swift")) {
        let name = match[2]
        let path = matches(#"path:\s*"([^"]+)""#, in: match[4] + match[3]).first?[1]
        let folder = path ?? (match[1] == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
        targets[name] = (folder, Set(matches(#"\.product\(name:\s*"([^"]+)""#, in: match[3]).map { $0[1] }))
    }
    return targets
}

/// The architecture document's layer diagram, the first code block of its "Modules" section:
/// each line's modules, separated by `·`, top line first.
private func layerDiagram() throws -> [[String]] {
    let document = try text("docs/ARCHITECTURE.md")
    guard let start = document.range(of: "\n## Modules\n") else { return [] }
    let blocks = document[start.upperBound...].components(separatedBy: "```")
    guard blocks.count > 2 else { return [] }
    return blocks[1].split(separator: "\n").map { line in
        line.split(separator: "·").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }.filter { !$0.isEmpty }
}

/// Where `documented` differs from `actual`, module by module.
private func difference(_ documented: Graph, _ actual: Graph) -> String {
    Set(documented.keys).union(actual.keys).sorted().compactMap { module in
        documented[module] == actual[module] ? nil
            : "\(module) documented \(documented[module]?.sorted() ?? []), is \(actual[module]?.sorted() ?? [])"
    }.joined(separator: "; ")
}

@Suite("The repository")
struct RepositoryTests {
    @Test("every module imports exactly the modules of ours its target declares")
    func importsDeclared() throws {
        let manifest = try manifestGraph()
        #expect(manifest.count >= 15, "the manifest's targets were not read: \(manifest.keys.sorted())")
        let imports = try importGraph(modules: Set(manifest.keys))
        for module in manifest.keys.sorted() where !["CLibgpiod", "CLibqrencode", "CLibmosquitto"].contains(module) {
            #expect(imports[module] == manifest[module], "\(module): imports \(imports[module]?.sorted() ?? []), declares \(manifest[module]?.sorted() ?? [])")
        }
    }

    @Test("every import of another package's module is a product the target declares: nothing internal to a dependency")
    func productsDeclared() throws {
        let targets = try declaredProducts()
        #expect(targets.count >= 30, "the manifest's targets were not read: \(targets.keys.sorted())")
        // A target's module is its name with each "-" made "_" (gpio-sim-harness: gpio_sim_harness).
        let ours = Set(targets.keys.map { $0.replacingOccurrences(of: "-", with: "_") })
            .union(["CLibgpiod", "GPIODShim", "CLibqrencode", "QRShim", "CSQLite", "CLibmosquitto", "StandardStreams"])
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
            let folder = repository.appendingPathComponent(target.folder)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            var foreign: Set<String> = []
            for file in files where file.pathExtension == "swift" {
                let source = try String(contentsOf: file, encoding: .utf8)
                for match in matches(#"^(?:@testable |@preconcurrency |public |internal )*import (\w+)$"#, in: source) {
                    foreign.insert(match[1])
                }
            }
            let undeclared = foreign.subtracting(ours).subtracting(toolchainModules).subtracting(target.products)
            #expect(undeclared.isEmpty, "\(name) imports \(undeclared.sorted()) without declaring them as products")
        }
    }

    @Test("docs/ARCHITECTURE.md's module table draws the manifest's graph")
    func graphDocumented() throws {
        var manifest = try manifestGraph()
        // The C shims over libgpiod and libqrencode are KernelGPIO's and ShareCode's own parts:
        // named as their dependencies, no rows.
        for shim in ["GPIODShim", "CLibgpiod", "QRShim", "CLibqrencode"] { manifest[shim] = nil }
        let architecture = try architectureGraph()
        #expect(architecture == manifest, "docs/ARCHITECTURE.md: \(difference(architecture, manifest))")
    }

    @Test("docs/ARCHITECTURE.md's diagram names every module once, each above every module it depends on")
    func layersDrawn() throws {
        var manifest = try manifestGraph()
        for shim in ["GPIODShim", "CLibgpiod", "QRShim", "CLibqrencode"] { manifest[shim] = nil }
        let layers = try layerDiagram()
        let drawn = layers.flatMap { $0 }
        #expect(drawn.count == Set(drawn).count, "a module is drawn twice: \(drawn.sorted())")
        #expect(Set(drawn) == Set(manifest.keys), "drawn \(Set(drawn).subtracting(manifest.keys).sorted()) beyond the manifest, missing \(Set(manifest.keys).subtracting(drawn).sorted())")
        let line = Dictionary(layers.enumerated().flatMap { index, modules in modules.map { ($0, index) } }, uniquingKeysWith: min)
        for (module, dependencies) in manifest {
            for dependency in dependencies where (line[dependency] ?? .max) <= (line[module] ?? .max) {
                Issue.record("\(module) depends on \(dependency), which is not drawn below it")
            }
        }
    }

    @Test("the web view's and the link's programs link no game, device or GPIO module: they relay the board's protocol", arguments: [
        ("tictactoe-web", "WebService"), ("tictactoe-network", "NetworkLink"),
    ])
    func relaysLinkNoGame(program: String, server: String) throws {
        let manifest = try manifestGraph()
        var linked: Set<String> = [], next = manifest[program] ?? []
        while let module = next.popFirst() {
            if linked.insert(module).inserted { next.formUnion(manifest[module] ?? []) }
        }
        #expect(linked.contains("BoardProtocol") && linked.contains(server), "\(program)'s modules were not read: \(linked.sorted())")
        let game: Set = ["TicTacToe", "ViewModel", "Lights", "Reactive", "GPIO", "Devices", "WiredBoard", "BoardAPI", "BoardConfiguration"]
        #expect(linked.isDisjoint(with: game), "\(program) links \(linked.intersection(game).sorted())")
    }

    @Test("each module lives in its layer's folder, Sources/<layer>/<module> (the test tooling in Harness/<module>, outside the product's sources), its tests in Tests/<layer>/<module>Tests, and docs/ARCHITECTURE.md lists it under that layer")
    func layout() throws {
        let document = try text("docs/ARCHITECTURE.md")
        let section = document.components(separatedBy: "\n## Modules\n").last?.components(separatedBy: "\n## ").first ?? ""
        var documented: [String: String] = [:]
        var folderOf: [String: String] = [:]
        for part in section.components(separatedBy: "\n### ").dropFirst() {
            guard let layer = matches(#"^(\w+) \(`((?:Sources/)?(\w+))/`\)"#, in: part).first, layer[1] == layer[3] else { continue }
            folderOf[layer[1]] = layer[2]
            for row in matches(#"^\| `([\w-]+)` \|"#, in: part) { documented[row[1]] = layer[1] }
        }
        #expect(folderOf["Harness"] == "Harness", "the test tooling's layer is not documented at Harness/")
        let targets = try declaredProducts()
        // The shims are their Swift module's own parts (the document says so), in the C layer.
        for shim in ["GPIODShim", "QRShim"] { documented[shim] = "CShims" }
        let modules = try manifestGraph().keys
        #expect(!modules.isEmpty && Set(documented.keys) == Set(modules), "documented \(documented.keys.sorted()), manifest \(modules.sorted())")
        for module in modules {
            let layer = documented[module] ?? "?"
            #expect(targets[module]?.folder == "\(folderOf[layer] ?? "?")/\(module)", "\(module): \(targets[module]?.folder ?? "no folder")")
            if let tests = targets[module + "Tests"] {
                #expect(tests.folder == "Tests/\(layer)/\(module)Tests", "\(module)Tests: \(tests.folder)")
            }
        }
        // No folder of sources outside a layer, nor a layer the document does not name.
        let layers = Set(documented.values).subtracting(["Harness"])
        let folders = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Sources").path)
        #expect(Set(folders) == layers, "Sources/ holds \(folders.sorted()); the layers are \(layers.sorted())")
    }

    @Test("every Swift 6.0.3 workaround is named where it is and listed in docs/ARCHITECTURE.md's table, and every name listed is used")
    func workaroundsRecorded() throws {
        let document = try text("docs/ARCHITECTURE.md")
        let listed = Set(matches(#"^\| `([a-z-]+)` \| [^|\n]+ \| [^|\n]+ \|$"#, in: document.components(separatedBy: "\n## Two toolchains\n").last ?? "").map { $0[1] })
        var used: Set<String> = [], untagged: [String] = []
        for folder in ["Sources", "Harness", "Tests"] {
            let root = repository.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" {
                // Each comment block (consecutive comment lines) that names the Pi's old Swift
                // carries a tag.
                var block = ""
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.drop(while: { $0 == " " }).hasPrefix("//") {
                        block += line + "\n"
                        continue
                    }
                    guard !block.isEmpty else { continue }
                    let tags = block.contains("[6.0.3: ") ? matches(#"\[6\.0\.3: ([a-z-]+)\]"#, in: block).map { $0[1] } : []
                    used.formUnion(tags)
                    if tags.isEmpty && ["Swift 6.0", "6.0.3", "6.0's"].contains(where: block.contains) {
                        untagged.append("\(file.lastPathComponent): \(block.prefix(80))")
                    }
                    block = ""
                }
            }
        }
        #expect(untagged.isEmpty, "comments naming Swift 6.0 without a [6.0.3: name] tag: \(untagged)")
        #expect(!listed.isEmpty && used == listed, "used \(used.sorted()), listed \(listed.sorted())")
    }

    @Test("the web view has one reader of requests: only ClientTraffic reads a head, and no package beside ours serves HTTP")
    func oneRequestReader() throws {
        var readers: [String] = []
        let sources = repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            if try String(contentsOf: file, encoding: .utf8).contains("RequestHead(parsing") { readers.append(file.lastPathComponent) }
        }
        #expect(readers == ["ClientTraffic.swift"])
        let packages = matches(#"\.package\(url:\s*"([^"]+)""#, in: try text("Package.swift")).map { $0[1] }
        #expect(packages == ["https://github.com/apple/swift-argument-parser"])
    }

    @Test("the version is written once in the sources, and the package's changelog agrees with the command", .process)
    func version() throws {
        let result = try Tictactoe.run(["--version"])
        let version = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.status == 0)
        let changelog = try text("packaging/debian/changelog")
        #expect(changelog.hasPrefix("tictactoe-gpio (\(version)) "), "packaging/debian/changelog's latest entry is not \(version)")
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." },
                "\(version) is not a semantic version MAJOR.MINOR.PATCH (docs/RELEASES.md)")
        // CHANGELOG.md: Unreleased first, then this version's entry, dated as the Debian one is.
        let releases = try text("CHANGELOG.md").components(separatedBy: "\n").filter { $0.hasPrefix("## ") }
        #expect(releases.first == "## Unreleased", "CHANGELOG.md's first section is not Unreleased")
        let latest = releases.dropFirst().first ?? ""
        #expect(latest.hasPrefix("## [\(version)] - "), "CHANGELOG.md's latest release is \(latest), not \(version)")
        let day = String(latest.suffix(10))
        let debianDate = changelog.components(separatedBy: "\n").first { $0.hasPrefix(" -- ") } ?? ""
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let signed = formatter.date(from: debianDate.components(separatedBy: ">  ").last ?? "")
        formatter.dateFormat = "yyyy-MM-dd"
        #expect(signed.map(formatter.string(from:)) == day, "CHANGELOG.md dates \(version) \(day); packaging/debian/changelog: \(debianDate)")
        var mentions = 0
        let files = FileManager.default.enumerator(at: repository.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            mentions += try String(contentsOf: file, encoding: .utf8).components(separatedBy: version).count - 1
        }
        #expect(mentions == 1, "the version is written \(mentions) times in Sources/, comments included; name ProgramVersion.current instead")
    }

    @Test("every trap in the sources and the harness prints its message in release builds too (no precondition, whose message -O drops)")
    func trapsSpeak() throws {
        var silent: [String] = []
        let files = ["Sources", "Harness"].flatMap { folder in
            FileManager.default.enumerator(at: repository.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
        }
        for file in files where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in source.components(separatedBy: "\n").enumerated()
            where line.contains("precondition(") || line.contains("preconditionFailure(") || line.contains("assert(") {
                silent.append("\(file.lastPathComponent):\(number + 1)")
            }
        }
        #expect(files.count > 50, "the sources were not read")
        #expect(silent.isEmpty, "use require(_:_:) or fatalError: \(silent)")
    }

    @Test("state shared between threads is behind Protected or Locked, never Synchronization's Mutex by name, which ThreadSanitizer cannot see (make sanitize)")
    func locksSanitizerSees() throws {
        var unseen: [String] = []
        let files = ["Sources", "Harness", "Tests"].flatMap { folder in
            FileManager.default.enumerator(at: repository.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
        }
        for file in files where file.pathExtension == "swift" && !["Protected.swift", "Locked.swift"].contains(file.lastPathComponent) {
            let source = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in source.components(separatedBy: "\n").enumerated() where !matches(#"(?<!\w)Mutex\s*[<(]"#, in: line).isEmpty {
                unseen.append("\(file.lastPathComponent):\(number + 1)")
            }
        }
        #expect(files.count > 100, "the sources were not read")
        #expect(unseen.isEmpty, "use Locked or Protected (Sources/Shared/Basics/): \(unseen)")
    }
}
