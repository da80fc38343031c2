import Foundation
import TestSupport
import Testing
import TicTacToe
@testable import ConfigurationFile

/// Valid TOML 1.0 documents of every value kind, from a seed: keys bare and quoted, tables,
/// integers in four bases, floats with exponents and the special values, strings with every
/// escape, the four date and time forms, lists nested and spread over lines, inline tables.
private struct TOMLGenerator {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func document() -> String {
        var lines: [String] = []
        var used: Set<String> = []
        let newline = chance(20) ? "\r\n" : "\n"
        for _ in 0..<below(5) { lines.append(entry(used: &used)) }
        // Now and then a form TOML has that the configuration leaves out, refused by design.
        if chance(15) {
            lines.append(pick([
                "dotted.key = 1", "\"quoted\".key = 2", "text = \"\"\"more\nlines\"\"\"", "raw = '''raw'''", "[[list]]",
                "[outer.inner]", "deep = " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
            ]))
            lines.append("")
        }
        for _ in 0..<below(4) {
            let name = key(avoiding: &used)
            lines.append(pick(["", "# a section\(newline == "\n" ? "" : " ")"]))
            lines.append(pick(["[\(name)]", "[ \(name) ]", "[\(name)]  # comment"]))
            var inner: Set<String> = []
            for _ in 0..<below(5) { lines.append(entry(used: &inner)) }
        }
        return lines.joined(separator: newline) + (chance(70) ? newline : "")
    }

    private mutating func entry(used: inout Set<String>) -> String {
        let name = key(avoiding: &used)
        return pick(["", "  ", "\t"]) + name + pick([" = ", "=", " =\t"]) + value(depth: 0) + pick(["", "  # note", " #"])
    }

    /// A key not in `used`, written bare or quoted.
    private mutating func key(avoiding used: inout Set<String>) -> String {
        while true {
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFXYZ0123456789_-")
            var name = String((0..<(1 + below(8))).map { _ in pick(letters) })
            var written = name
            switch below(10) {
            case 0:
                name += " é"
                written = "\"\(name)\""
            case 1:
                written = "'\(name)'"
            default: break
            }
            if used.insert(name).inserted { return written }
        }
    }

    private mutating func value(depth: Int) -> String {
        switch below(depth < 3 ? 9 : 7) {
        case 0: return integer()
        case 1: return float()
        case 2: return pick(["true", "false"])
        case 3: return basicString()
        case 4: return literalString()
        case 5: return dateTime()
        case 6: return pick(["0", "-0", "+1", "1_000"])
        case 7: return array(depth: depth + 1)
        default: return inlineTable(depth: depth + 1)
        }
    }

    private mutating func integer() -> String {
        let number = Int64(bitPattern: random.next()) >> below(63)
        switch below(7) {
        case 0: return "0x" + String(UInt64(bitPattern: number) >> 1, radix: 16, uppercase: chance(50))
        case 1: return "0o" + String(number.magnitude >> 1, radix: 8)
        case 2: return "0b" + String(number.magnitude >> 40, radix: 2)
        case 3: return number < 0 ? "\(number)" : "+\(number)"
        case 4: return grouped(String(number.magnitude))
        default: return "\(number)"
        }
    }

    /// Digits with underscores between some of them, as TOML allows.
    private mutating func grouped(_ digits: String) -> String {
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && chance(20) { text += "_" }
            text.append(digit)
        }
        return text
    }

    private mutating func float() -> String {
        switch below(8) {
        case 0: return pick(["inf", "+inf", "-inf", "nan", "+nan", "-nan"])
        case 1: return pick(["-0.0", "+0.0", "0.0", "0e0", "1e400", "-1e-400"])
        case 2: return "\(below(1000))e\(pick(["", "+", "-"]))\(below(40))"
        case 3: return "\(pick(["", "-", "+"]))\(grouped(String(below(100_000)))).\(grouped(String(below(100_000))))"
        case 4: return "\(below(10)).\(below(1000))E\(pick(["", "-"]))0\(below(9))"
        // A sign where a date has its first hyphen (2.1e-251): a float, not a date.
        case 5: return "\(below(10)).\(below(10))\(pick(["e", "E"]))\(pick(["-", "+"]))\(100 + below(208))"
        default: return String(Double(Int64(bitPattern: random.next()) >> below(60)) / 1000)
        }
    }

    private mutating func basicString() -> String {
        let pieces = ["a", "Z", " ", "é", "日本", "\\t", "\\n", "\\r", "\\b", "\\f", "\\\"", "\\\\", "\\u00e9", "\\U0001F600",
                      "'", "#", "=", "[", "\u{202E}", "\t"]
        return "\"" + (0..<below(8)).map { _ in pick(pieces) }.joined() + "\""
    }

    private mutating func literalString() -> String {
        let pieces = ["a", "C:\\dir", " ", "\"", "é", "\\n", "#", "\t"]
        return "'" + (0..<below(6)).map { _ in pick(pieces) }.joined() + "'"
    }

    private mutating func dateTime() -> String {
        let year = 1 + below(9999), month = 1 + below(12)
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let day = 1 + below([31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1])
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let date = String(repeating: "0", count: 4 - String(year).count) + "\(year)-\(two(month))-\(two(day))"
        var time = "\(two(below(24))):\(two(below(60))):\(two(below(60)))"
        if chance(30) { time += "." + String(below(10_000_000)) }
        let offset = pick(["", "Z", "z", "+05:30", "-08:00", "+00:00"])
        switch below(4) {
        case 0: return date
        case 1: return time
        default: return date + pick(["T", "t", " "]) + time + offset
        }
    }

    private mutating func array(depth: Int) -> String {
        let items = (0..<below(4)).map { _ in value(depth: depth) }
        if chance(30) {
            return "[\n" + items.map { "  " + $0 + "," + pick(["", " # item"]) }.joined(separator: "\n") + "\n]"
        }
        return "[" + items.joined(separator: ", ") + (chance(20) && !items.isEmpty ? "," : "") + "]"
    }

    private mutating func inlineTable(depth: Int) -> String {
        var used: Set<String> = []
        let entries = (0..<below(3)).map { _ in key(avoiding: &used) + " = " + value(depth: depth) }
        return "{" + (entries.isEmpty ? "" : " " + entries.joined(separator: ", ") + " ") + "}"
    }
}

/// Reads each file of a folder with Python's `tomllib` (a complete TOML 1.0 reader) and prints,
/// as JSON, each file's values with their kinds, or its error.
private let referenceReader = #"""
import datetime, json, os, sys, tomllib

def encode(value):
    if isinstance(value, bool): return {"b": value}
    if isinstance(value, int): return {"i": str(value)}
    if isinstance(value, float): return {"f": repr(value)}
    if isinstance(value, str): return {"s": value}
    if isinstance(value, datetime.datetime): return {"d": "datetime"}
    if isinstance(value, datetime.date): return {"d": "date"}
    if isinstance(value, datetime.time): return {"d": "time"}
    if isinstance(value, list): return [encode(item) for item in value]
    return {"t": {key: encode(item) for key, item in value.items()}}

results = {}
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    with open(os.path.join(folder, name), "rb") as file:
        data = file.read()
    try:
        results[name] = {"ok": True, "value": encode(tomllib.loads(data.decode("utf-8")))["t"]}
    except Exception as error:
        results[name] = {"ok": False, "error": f"{type(error).__name__}: {error}"}
json.dump(results, sys.stdout)
"""#

/// How our reader's view of one file compares with `tomllib`'s.
private enum Verdict: Equatable {
    case agree
    /// Refused by the reader on purpose (a form the configuration leaves out), accepted by tomllib.
    case byDesign(String)
    case disagree(String)
}

/// The forms the reader refuses on purpose, by the words of its message.
private let formsRefusedByDesign = [
    "dotted keys", "arrays of tables", "multi-line strings", "nest more than", "beyond the 64-bit integers",
]

private func verdict(text: String, reference: [String: Any]) -> Verdict {
    let accepted = reference["ok"] as? Bool ?? false
    let document: TOMLDocument
    do {
        document = try TOMLDocument(parsing: text)
    } catch {
        guard accepted else { return .agree }
        if let form = formsRefusedByDesign.first(where: { error.message.contains($0) }) { return .byDesign(form) }
        return .disagree("refused (line \(error.line), column \(error.column): \(error.message)); tomllib reads it")
    }
    guard accepted, let values = reference["value"] as? [String: Any] else {
        if text.unicodeScalars.first == "\u{FEFF}" { return .byDesign("a byte-order mark") }
        return .disagree("read; tomllib refuses it: \(reference["error"] ?? "")")
    }
    var ours: [String: Any] = [:]
    for key in document.top.keys { ours[key] = document.top.entries[key]?.value }
    for name in document.tableNames { ours[name] = document.tables[name] }
    guard Set(ours.keys) == Set(values.keys) else {
        return .disagree("top-level keys \(ours.keys.sorted()) against tomllib's \(values.keys.sorted())")
    }
    for (key, theirs) in values {
        if let table = ours[key] as? TOMLDocument.Table {
            guard let entries = (theirs as? [String: Any])?["t"] as? [String: Any], Set(entries.keys) == Set(table.keys) else {
                return .disagree("[\(key)] holds other keys than tomllib's")
            }
            for (name, item) in entries where !same(table.entries[name]?.value, item) {
                return .disagree("\(key).\(name) is \(String(describing: table.entries[name]?.value)); tomllib: \(item)")
            }
        } else if !same(ours[key] as? TOMLValue, theirs) {
            return .disagree("\(key) is \(String(describing: ours[key])); tomllib: \(theirs)")
        }
    }
    return .agree
}

/// Whether our value is tomllib's (dates by their form, inline tables by being tables: the
/// reader keeps neither's contents, which no key of the configuration takes).
private func same(_ ours: TOMLValue?, _ theirs: Any) -> Bool {
    guard let ours else { return false }
    let tagged = theirs as? [String: Any]
    switch ours {
    case .string(let text): return tagged?["s"] as? String == text
    case .integer(let number): return tagged?["i"] as? String == String(number)
    case .boolean(let flag): return tagged?["b"] as? Bool == flag
    case .float(let number):
        guard let text = tagged?["f"] as? String, let reference = Double(text) else { return false }
        return number.isNaN ? reference.isNaN : number == reference && number.sign == reference.sign
    case .dateTime(let token):
        let form = token.count == 10 ? "date" : Array(token.unicodeScalars)[2] == ":" ? "time" : "datetime"
        return tagged?["d"] as? String == form
    case .array(let items):
        guard let list = theirs as? [Any], list.count == items.count else { return false }
        return zip(items, list).allSatisfy { same($0, $1) }
    case .inlineTable:
        return tagged?["t"] is [String: Any]
    }
}

@Suite("TOML reading against Python's tomllib", .process)
struct TOMLReferenceTests {
    /// Generated valid documents, and mutations of them and of the configuration's own file
    /// (the figures in the closing note of issue 19).
    static let generated = 800, mutatedGenerated = 2400, mutatedConfiguration = 800

    /// The configuration file the package installs (the previous release's; a test of
    /// BoardConfiguration holds it to read as the schema's defaults).
    static let defaultFile = repositoryRoot
        .appendingPathComponent(InstalledConfiguration.projectCopy)

    @Test("the same files accepted and refused, with the same values, but for the forms refused by design",
          .timeLimit(.minutes(5)))
    func differential() throws {
        var texts: [String] = []
        var generator = TOMLGenerator(seed: 0x70_3110)
        let documents = (0..<Self.generated).map { _ in generator.document() }
        texts += documents
        var seed = SeededRandom(seed: 0xD1FF)
        for index in 0..<Self.mutatedGenerated {
            var mutator = Mutator(seed: documents[index % documents.count], randomSeed: seed.next())
            texts.append(mutator.next())
        }
        let configuration = try String(contentsOf: Self.defaultFile, encoding: .utf8)
        var mutator = Mutator(seed: configuration, randomSeed: 0xC0F1_6)
        texts += (0..<Self.mutatedConfiguration).map { _ in mutator.next() }
        texts += [configuration]

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tictactoe-toml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, text) in texts.enumerated() {
            try Data(text.utf8).write(to: folder.appendingPathComponent(String(format: "case-%05d.toml", index)))
        }

        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", referenceReader, folder.path]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "python3 with tomllib (3.11 or newer) is needed: make setup-tests installs it")
        let references = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        try #require(references.count == texts.count)

        var agreed = 0, validAgreed = 0
        var byDesign: [String: Int] = [:]
        var disagreements: [String] = []
        for (index, text) in texts.enumerated() {
            let name = String(format: "case-%05d.toml", index)
            switch verdict(text: text, reference: references[name] ?? [:]) {
            case .agree:
                agreed += 1
                if references[name]?["ok"] as? Bool == true { validAgreed += 1 }
            case .byDesign(let form): byDesign[form, default: 0] += 1
            case .disagree(let why): disagreements.append("\(name): \(why)\n\(text.debugDescription)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(texts.count) disagree; the first:\n\(disagreements.prefix(5).joined(separator: "\n"))")
        #expect(validAgreed >= Self.generated, "too few valid documents compared: \(validAgreed)")
        print("TOML against tomllib: \(texts.count) files, \(agreed) agree (\(validAgreed) read alike, the rest refused alike), refused by design: \(byDesign.sorted { $0.key < $1.key })")
    }
}
