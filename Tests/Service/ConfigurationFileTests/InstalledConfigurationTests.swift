import Foundation
import Testing
import ConfigurationFile
import TestSupport

private let repository = repositoryRoot

/// The repository's text files under `paths` (folders or files), by path from the repository.
private func files(under paths: [String], extensions: Set<String>? = nil) -> [(path: String, text: String)] {
    var found: [(String, String)] = []
    for path in paths {
        let top = repository.appendingPathComponent(path)
        var folder: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: top.path, isDirectory: &folder) && folder.boolValue
        var urls = [top]
        if isFolder {
            urls = FileManager.default.enumerator(at: top, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        }
        for url in urls where extensions?.contains(url.pathExtension) ?? true {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            found.append((String(url.path.dropFirst(repository.path.count + 1)), text))
        }
    }
    return found
}

@Suite("Where the configuration file is installed")
struct InstalledConfigurationTests {
    @Test("the units, the packages, the scripts and the documents name the path the commands read, or its folder")
    func samePathEverywhere() throws {
        let folder = (InstalledConfiguration.path as NSString).deletingLastPathComponent
        let named = ["systemd/tictactoe.service", "systemd/tictactoe-web.service", "packaging/debian/conffiles", "packaging/make-deb.sh", "scripts/install.sh"]
        let read = files(under: named)
        #expect(read.map(\.path) == named)
        for (path, text) in read {
            #expect(text.contains(InstalledConfiguration.path), "\(path) does not name \(InstalledConfiguration.path)")
        }
        let expression = try NSRegularExpression(pattern: "/etc/tictactoe[A-Za-z0-9_./-]*")
        var others: [String] = []
        for (path, text) in files(under: ["systemd", "packaging", "scripts", "docs", "vm", "Hardware", "README.md"]) {
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range, in: text) else { continue }
                var mention = String(text[range])
                while mention.hasSuffix(".") || mention.hasSuffix("/") { mention.removeLast() }
                if mention != InstalledConfiguration.path && mention != folder { others.append("\(path): \(mention)") }
            }
        }
        #expect(others.isEmpty, "another configuration path: \(others)")
    }

    @Test("the Swift sources write the path once")
    func writtenOnce() throws {
        let mentions = files(under: ["Sources"], extensions: ["swift"]).filter { $0.text.contains(InstalledConfiguration.path) }.map(\.path)
        #expect(mentions == ["Sources/Service/ConfigurationFile/InstalledConfiguration.swift"])
    }
}
