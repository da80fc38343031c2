import BoardConfiguration
import ConfigurationFile
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The configuration file as the board (``Configuration``) and the web view (``WebSettings``)
/// read it: UTF-8 text, TOML (``TOMLDocument``), then each key checked.
///
/// Kept: a document read, written back out as TOML (``written(_:)``), reads as the same
/// document; a refusal names the file and a line of it. (`make fuzz` holds what is read to
/// Python's tomllib too, over the corpus: fuzz/toml_differential.py, through ``json(_:)``.)
public enum ConfigurationTarget: FuzzTarget {
    public static let name = "configuration"
    static let file = "fuzzed.toml"

    public static func check(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        func placed(_ error: ConfigurationError) -> String? {
            guard error.file == file else { return "a refusal names the file \(error.file)" }
            if let line = error.line, !(1...lines).contains(line) { return "a refusal names line \(line) of \(lines)" }
            guard !error.message.isEmpty else { return "a refusal without words" }
            return nil
        }
        let document: ConfigurationDocument
        do {
            document = try ConfigurationDocument(parsing: text, file: file)
        } catch {
            return placed(error)
        }
        let written = written(document.toml)
        guard let again = try? TOMLDocument(parsing: written) else { return "the document read, written back out, is refused:\n\(written)" }
        guard Self.written(again) == written else { return "the document read, written back out, reads differently:\n\(written)" }
        do {
            _ = try Configuration.parse(text, file: file)
        } catch {
            if let problem = placed(error) { return problem }
        }
        do {
            _ = try WebSettings(reading: document)
        } catch {
            if let problem = placed(error) { return problem }
        }
        return nil
    }

    /// The document as TOML: its keys in the order written, strings with every control
    /// character escaped, a NaN without its sign (TOML's `-nan` and `nan` are one value).
    static func written(_ document: TOMLDocument) -> String {
        var text = ""
        for key in document.top.keys { text += "\(quoted(key)) = \(written(document.top.entries[key]?.value))\n" }
        for name in document.tableNames {
            text += "[\(quoted(name))]\n"
            guard let table = document.tables[name] else { continue }
            for key in table.keys { text += "\(quoted(key)) = \(written(table.entries[key]?.value))\n" }
        }
        return text
    }

    private static func written(_ value: TOMLValue?) -> String {
        switch value {
        case nil: "\"(missing)\""
        case .string(let text)?: quoted(text, always: true)
        case .integer(let number)?: String(number)
        case .float(let number)?: number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : "\(number)"
        case .boolean(let truth)?: truth ? "true" : "false"
        case .dateTime(let text)?: text
        case .array(let values)?: "[" + values.map { written($0) }.joined(separator: ", ") + "]"
        case .inlineTable?: "{}"
        }
    }

    private static func quoted(_ text: String, always: Bool = false) -> String {
        let bare = !text.isEmpty && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
        if bare && !always { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// The document `bytes` hold, as JSON for fuzz/toml_differential.py: `{"top": {…},
    /// "tables": {name: {…}}}`, each value typed (`{"string": …}`, `{"integer": "…"}`, …);
    /// `nil` when the bytes are not a document this reader accepts.
    public static func json(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self), let document = try? TOMLDocument(parsing: text) else { return nil }
        func object(_ table: TOMLDocument.Table) -> Value {
            .object(table.keys.map { ($0, typed(table.entries[$0]?.value)) })
        }
        let tables = Value.object(document.tableNames.compactMap { name in document.tables[name].map { (name, object($0)) } })
        return Value.object([("top", object(document.top)), ("tables", tables)]).json
    }

    private static func typed(_ value: TOMLValue?) -> Value {
        switch value {
        case nil: .object([])
        case .string(let text)?: .object([("string", .text(text))])
        case .integer(let number)?: .object([("integer", .text(String(number)))])
        case .float(let number)?: .object([("float", .text(number.isNaN ? "nan" : "\(number)"))])
        case .boolean(let truth)?: .object([("boolean", .text(truth ? "true" : "false"))])
        case .dateTime(let text)?: .object([("date-time", .text(text))])
        case .array(let values)?: .object([("array", .list(values.map { typed($0) }))])
        case .inlineTable?: .object([("inline-table", .text(""))])
        }
    }

    /// Just enough JSON, its objects' keys in order.
    private indirect enum Value {
        case text(String)
        case list([Value])
        case object([(String, Value)])

        var json: String {
            switch self {
            case .text(let text): Self.string(text)
            case .list(let values): "[" + values.map(\.json).joined(separator: ",") + "]"
            case .object(let members): "{" + members.map { Self.string($0.0) + ":" + $0.1.json }.joined(separator: ",") + "}"
            }
        }

        static func string(_ text: String) -> String {
            let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }
}
