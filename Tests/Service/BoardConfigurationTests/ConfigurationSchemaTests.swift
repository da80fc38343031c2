import Basics
import ConfigurationFile
import Devices
import Foundation
import GPIO
import ViewModel
import Testing
import WiredBoard
@testable import BoardConfiguration
import TestSupport

private let repository = repositoryRoot

private func repositoryFile(_ path: String) -> String {
    (try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)) ?? ""
}

/// A value written in place of a key's own, as a person (or a fuzzer) might.
struct Mutation: Sendable, CustomTestStringConvertible {
    let name: String
    /// The new `key = …` line; nil removes the key.
    let value: String?
    var testDescription: String { name }
}

/// Thirteen ways to get a key wrong, applied to every key of the schema.
private let mutations: [Mutation] = [
    Mutation(name: "missing", value: nil),
    Mutation(name: "text", value: "\"seven\""),
    Mutation(name: "empty text", value: "\"\""),
    Mutation(name: "escape sequence", value: "\"\\u001B[2J\""),
    Mutation(name: "long text", value: "\"" + String(repeating: "A", count: 4096) + "\""),
    Mutation(name: "decimal", value: "1.5"),
    Mutation(name: "boolean", value: "true"),
    Mutation(name: "empty list", value: "[]"),
    Mutation(name: "zero", value: "0"),
    Mutation(name: "negative", value: "-1"),
    Mutation(name: "largest integer", value: "9223372036854775807"),
    Mutation(name: "smallest integer", value: "-9223372036854775808"),
    Mutation(name: "bare word", value: "auto"),
]

/// The default file with `key` given `value` (or removed).
private func mutated(_ key: ConfigurationSchema.Key, _ value: String?) -> String {
    let text = ConfigurationSchema.defaultFile
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var table: String?
    for index in lines.indices {
        let line = lines[index]
        if line.hasPrefix("[") { table = String(line.dropFirst().dropLast()) }
        // A key the file leaves out is there as a comment.
        if table == key.table, line.hasPrefix(key.name + " = ") {
            lines[index] = value.map { "\(key.name) = \($0)" } ?? ""
        }
    }
    return lines.joined(separator: "\n")
}

@Suite("One schema for the configuration")
struct ConfigurationSchemaTests {
    @Test("the default file the schema writes (tictactoe check-config --print-default) and the one the package installs (Hardware/tictactoe.toml, the previous release's) read as the defaults of the types themselves")
    func defaultFile() throws {
        #expect(try Configuration.parse(ConfigurationSchema.defaultFile, file: "default") == Configuration())
        let installed = repositoryFile("Hardware/tictactoe.toml")
        #expect(!installed.isEmpty)
        #expect(try Configuration.parse(installed, file: "Hardware/tictactoe.toml") == Configuration())
    }

    @Test("every key is read: a value other than its default reaches the settings")
    func everyKeyRead() throws {
        for key in ConfigurationSchema.keys {
            let changed: String
            switch key.value {
            case .chip: changed = "\"gpiochip4\""
            case .name: changed = "\"Ada\""
            case .opponent: changed = "\"computer-3\""
            case .learnerRules: changed = key.defaultText == "\"michie\"" ? "\"quick\"" : "\"michie\""
            // GPIO7 is spare in the standard map.
            case .pins(let group) where group.lineCount == 1: changed = "7"
            case .pins: changed = "[7" + key.defaultText.drop(while: { $0 != "," })
            case .polarity: changed = key.defaultText == "\"active-low\"" ? "\"active-high\"" : "\"active-low\""
            case .duration(_, _, let range, _):
                let number = try #require(Int(key.defaultText))
                changed = "\(number == range.upperBound ? number - 1 : number + 1)"
            case .marks: changed = key.defaultText == "\"colour\"" ? "\"colour-and-brightness\"" : "\"colour\""
            case .figure(_, _, let range):
                let number = try #require(Double(key.defaultText))
                changed = ConfigurationSchema.written(number + 1 > range.upperBound ? number - 1 : number + 1)
            case .beads(_, let range):
                let number = try #require(Int(key.defaultText))
                changed = "\(number == range.upperBound ? number - 1 : number + 1)"
            case .web(.listen): changed = "\"127.0.0.1:8000\""
            case .web(.allow): changed = key.defaultText == "\"play\"" ? "\"watch\"" : "\"play\""
            case .web(.hosts): changed = "[\"board.home.arpa\"]"
            case .network(.broker): changed = "\"broker.home.arpa:8883\""
            case .network(.name): changed = "\"kitchen\""
            case .network(.allow): changed = key.defaultText == "\"play\"" ? "\"watch\"" : "\"play\""
            case .network(.caFile): changed = "\"/etc/tictactoe/ca.pem\""
            case .network(.user): changed = "\"kitchen\""
            case .network(.discovery): changed = "\"ha/discovery\""
            // Read only with the keys they go with: NetworkSettingsTests.everyKey.
            case .network(.passwordFile), .network(.certificate), .network(.certificateKey): continue
            }
            guard case .beads = key.value else {
                let configuration = try Configuration.parse(mutated(key, changed), file: "t.toml")
                #expect(configuration != Configuration(), "\(key.path) = \(changed) was not read")
                continue
            }
            // A count of Michie's rules counts under them only.
            let michie = mutated(key, changed).replacingOccurrences(of: "rules = \"quick\"", with: "rules = \"michie\"")
            let configuration = try Configuration.parse(michie, file: "t.toml")
            #expect(configuration.settings.michieCounts != .michie, "\(key.path) = \(changed) was not read")
        }
    }

    @Test("each key's range is the reader's: both ends taken, one past either end refused")
    func ranges() throws {
        for key in ConfigurationSchema.keys {
            guard case .duration(let field, let unit, let range, _) = key.value else { continue }
            for number in [range.lowerBound, range.upperBound] {
                do {
                    let configuration = try Configuration.parse(mutated(key, "\(number)"), file: "t.toml")
                    #expect(configuration.settings[keyPath: field] == unit.duration(number))
                } catch {
                    // Only the limits between keys may refuse an end of a key's own range.
                    #expect(error.message.contains("must be longer than") || error.message.contains("must not exceed") || error.message.contains("they flicker below"), "\(key.path) = \(number): \(error)")
                }
            }
            for number in [range.lowerBound - 1, range.upperBound + 1] {
                #expect(throws: ConfigurationError.self, "\(key.path) = \(number)") {
                    try Configuration.parse(mutated(key, "\(number)"), file: "t.toml")
                }
            }
        }
    }

    @Test("each LED figure's range is the reader's: both ends taken (or refused only for the scan they would need), one past refused; decimals read")
    func figureRanges() throws {
        for key in ConfigurationSchema.keys {
            guard case .figure(let field, let unit, let range) = key.value else { continue }
            for number in [range.lowerBound, range.upperBound, (range.lowerBound + range.upperBound) / 2 + 0.25] {
                let text = mutated(key, ConfigurationSchema.written(number))
                do {
                    let configuration = try Configuration.parse(text, file: "t.toml")
                    #expect(configuration.settings[keyPath: field] == number)
                } catch {
                    #expect(error.message.contains("they flicker below"), "\(key.path) = \(number): \(error)")
                }
            }
            for number in [range.lowerBound - 1, range.upperBound + 1] {
                let written = ConfigurationSchema.written(number)
                #expect(throws: ConfigurationError.self, "\(key.path) = \(number)") {
                    try Configuration.parse(mutated(key, written), file: "t.toml")
                }
                do {
                    _ = try Configuration.parse(mutated(key, written), file: "t.toml")
                } catch {
                    #expect(error.message == "\(key.path) is \(written) \(unit); it must be between \(ConfigurationSchema.written(range.lowerBound)) and \(ConfigurationSchema.written(range.upperBound)).")
                }
            }
        }
    }

    @Test("every key mutated thirteen ways: read, or refused naming the key and its line; never a crash", arguments: mutations)
    func mutatedKeys(_ mutation: Mutation) {
        for key in ConfigurationSchema.keys {
            let text = mutated(key, mutation.value)
            do {
                _ = try Configuration.parse(text, file: "t.toml")
            } catch {
                let syntax = error.message.hasPrefix("not valid TOML")
                #expect(syntax || error.message.contains(key.path) || error.key == key.path,
                        "\(key.path) \(mutation.name): \(error)")
                #expect(error.line != nil, "\(key.path) \(mutation.name): no line in \(error)")
                #expect(!error.description.unicodeScalars.contains { $0.isInvisible && $0 != "\n" },
                        "\(key.path) \(mutation.name): a raw control character in the message")
            }
        }
    }

    @Test("hostile text in a file never reaches the terminal raw: unknown keys, values, syntax errors")
    func hostileText() throws {
        let escape = "\\u001B[2J", bidi = "\u{202E}"
        let polarity = try #require(ConfigurationSchema.keys.first { $0.path == "buttons.polarity" })
        let files = [
            ConfigurationSchema.defaultFile + "\"a\(escape)\" = 1\n",
            ConfigurationSchema.defaultFile.replacingOccurrences(of: "[players]\n", with: "[players]\n\"x\(escape)\" = 1\n"),
            mutated(ConfigurationSchema.chip, "\"\(escape)\""),
            mutated(ConfigurationSchema.chip, "\"auto\" \(bidi)"),
            mutated(polarity, "\"\(bidi)active-low\""),
        ]
        for file in files {
            do {
                _ = try Configuration.parse(file, file: "t.toml")
                Issue.record("read without complaint: \(file)")
            } catch {
                #expect(!error.description.unicodeScalars.contains { $0.isInvisible }, "\(error)")
                #expect(error.description.contains("U+"), "\(error)")
            }
        }
    }
}
