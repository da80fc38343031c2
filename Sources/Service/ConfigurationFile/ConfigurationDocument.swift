import Basics

/// A configuration file read as TOML, with the file's name: what every reader of the file (the
/// board's, the web view's) looks its keys up in, so that each names a problem's place alike.
///
/// A file that cannot be read, or is not TOML, is refused here; what its keys must hold is the
/// readers' business.
public struct ConfigurationDocument: Sendable {
    public let toml: TOMLDocument
    /// The file as messages name it.
    public let file: String

    /// Reads and parses the file at `path`.
    public static func load(file path: String) throws(ConfigurationError) -> ConfigurationDocument {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw ConfigurationError(
                file: path, line: nil, key: "", message: "\(error.reason). Check the path, or copy \(InstalledConfiguration.projectCopy) there.")
        }
        return try ConfigurationDocument(parsing: text, file: path)
    }

    /// Parses configuration `text`; `file` names it in messages.
    public init(parsing text: String, file: String) throws(ConfigurationError) {
        do {
            toml = try TOMLDocument(parsing: text)
        } catch {
            throw ConfigurationError(
                file: file, line: error.line, key: "",
                message: "not valid TOML at column \(error.column): \(error.message). Fix the syntax (compare with \(InstalledConfiguration.projectCopy)).")
        }
        self.file = file
    }

    /// A problem with the key at `path` (`table.key` or `key`), placed on its line.
    public func error(_ path: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line(of: path), key: path, message: message)
    }

    /// The line of `path` (`table.key` or `key`), else of its table, else nil.
    public func line(of path: String) -> Int? {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2, let table = toml.tables[parts[0]] {
            return table.entries[parts[1]]?.line ?? table.line
        }
        return toml.top.entries[path]?.line ?? toml.tables[path]?.line
    }

    /// The value of `key` in `table` (nil: at the top), if the file gives one.
    public func value(table: String?, key: String) -> TOMLValue? {
        guard let table else { return toml.top.entries[key]?.value }
        return toml.tables[table]?.entries[key]?.value
    }

    /// The text of `key` in `table`, if the file gives one; refused when it is not text.
    public func text(table: String?, key: String) throws(ConfigurationError) -> String? {
        let path = Self.path(table: table, key: key)
        if table == nil, toml.tables[key] != nil {
            throw error(path, "\(path) must be text in quotes, not a table.")
        }
        guard let value = value(table: table, key: key) else { return nil }
        guard case .string(let text) = value else {
            throw error(path, "\(path) must be text in quotes, not \(value.described).")
        }
        return text
    }

    /// Refuses `name` given as a single value rather than a `[name]` section, and a key in the
    /// section that is not one of `keys`. A file without the section passes.
    public func checkTable(_ name: String, keys: [String]) throws(ConfigurationError) {
        guard let section = toml.tables[name] else {
            guard toml.top.entries[name] == nil else {
                throw error(name, "\(name) must be a table, written as a [\(name)] section, not a single value.")
            }
            return
        }
        for inner in section.keys where !keys.contains(inner) {
            throw error("\(name).\(inner)", "unknown key \(name).\(inner.shown()); [\(name)] has \(keys.joined(separator: ", ")). Remove it or fix its spelling.")
        }
    }

    /// How messages and documents name a key: `table.key`, or `key` at the top.
    public static func path(table: String?, key: String) -> String {
        table.map { "\($0).\(key)" } ?? key
    }
}
