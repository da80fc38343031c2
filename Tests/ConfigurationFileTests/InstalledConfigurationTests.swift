import Foundation
import Testing
import ConfigurationFile

private let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func text(_ path: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
}

@Suite("Where the configuration file is installed")
struct InstalledConfigurationTests {
    @Test("the units, the packages and the install script name the path the commands read")
    func samePathEverywhere() throws {
        let files = [
            "systemd/tictactoe.service", "systemd/tictactoe-web.service", "packaging/debian/conffiles",
            "packaging/make-deb.sh", "scripts/install.sh",
        ]
        for file in files {
            #expect(try text(file).contains(InstalledConfiguration.path), "\(file) does not name \(InstalledConfiguration.path)")
        }
    }

    @Test("the Swift sources write the path once")
    func writtenOnce() throws {
        var mentions: [String] = []
        let sources = FileManager.default.enumerator(at: repository.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        for file in sources where file.pathExtension == "swift" {
            if try String(contentsOf: file, encoding: .utf8).contains(InstalledConfiguration.path) { mentions.append(file.lastPathComponent) }
        }
        #expect(mentions == ["InstalledConfiguration.swift"])
    }
}
