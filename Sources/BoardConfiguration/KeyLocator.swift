/// Finds the line of each key in a TOML file, so that errors can point at it. TOMLKit reports
/// positions only for syntax errors; this reads the flat shape the configuration uses
/// (`[table]` headers and `key = value` lines), which is all it needs to.
struct KeyLocator {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var table = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("["), let close = line.firstIndex(of: "]") {
                table = line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces)
                if lines[table] == nil { lines[table] = index + 1 }
                continue
            }
            if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                let path = table.isEmpty ? key : "\(table).\(key)"
                if lines[path] == nil { lines[path] = index + 1 }
            }
        }
    }

    /// The line of `path` (`table.key` or `key`), else of its table, else nil.
    func line(of path: String) -> Int? {
        if let line = lines[path] { return line }
        if let dot = path.firstIndex(of: ".") { return lines[String(path[..<dot])] }
        return nil
    }
}

import Foundation
