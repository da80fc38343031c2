import Basics

/// A value in a TOML file, as far as the configuration needs to tell values apart.
public enum TOMLValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A date, time or date-time, kept as written: no key of the configuration takes one.
    case dateTime(String)
    case array([TOMLValue])
    /// An inline table (`{ a = 1 }`): no key of the configuration takes one either.
    case inlineTable

    /// How a message names the value to the person who wrote it.
    public var described: String {
        switch self {
        case .string(let text): "text (\(text.quoted()))"
        case .integer(let number): "a number (\(number))"
        case .float(let number): "a decimal number (\(number))"
        case .boolean: "true/false"
        case .dateTime: "a date or time"
        case .array: "a list"
        case .inlineTable: "a table"
        }
    }
}

/// A syntax error: where it is (1-based line and column, in characters) and what is wrong.
public struct TOMLSyntaxError: Error, Sendable, Hashable {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// A TOML file read the way the configuration is written: `key = value` lines at the top and
/// under `[table]` headers, with every value kind TOML has, and the line each key and table
/// stands on, so that every message can point at it.
///
/// Strict where the file could be misread: a key or table given twice, a control character, a
/// malformed number or string, anything after a value on its line. Three TOML forms that no
/// configuration needs are refused with a message saying how to write the same thing: dotted
/// keys (`a.b = 1`), arrays of tables (`[[a]]`) and multi-line strings (`"""…"""`).
public struct TOMLDocument: Sendable {
    public struct Entry: Sendable, Hashable {
        public var value: TOMLValue
        public var line: Int

        public init(value: TOMLValue, line: Int) {
            self.value = value
            self.line = line
        }
    }

    public struct Table: Sendable {
        /// The header's line; 0 for the top of the file.
        public var line: Int
        public var entries: [String: Entry] = [:]
        /// Keys in the order they were written.
        public var keys: [String] = []
    }

    /// The top of the file, before any header.
    public private(set) var top = Table(line: 0)
    /// Tables by name, and their names in the order they were written.
    public private(set) var tables: [String: Table] = [:]
    public private(set) var tableNames: [String] = []

    public init(parsing text: String) throws(TOMLSyntaxError) {
        var parser = Parser(text)
        try parser.parseDocument(into: &self)
    }

    fileprivate mutating func add(key: String, entry: Entry, to table: String?) throws(TOMLSyntaxError) {
        func insert(_ table: inout Table, name: String) throws(TOMLSyntaxError) {
            if let earlier = table.entries[key] {
                throw TOMLSyntaxError(line: entry.line, column: 1, message: "\(name) is given twice (first on line \(earlier.line)); keep one")
            }
            table.entries[key] = entry
            table.keys.append(key)
        }
        if let table {
            try insert(&tables[table, default: Table(line: entry.line)], name: "\(table).\(key)")
        } else {
            try insert(&top, name: key)
        }
    }

    fileprivate mutating func addTable(_ name: String, line: Int) throws(TOMLSyntaxError) {
        if let earlier = tables[name] {
            throw TOMLSyntaxError(line: line, column: 1, message: "[\(name)] is given twice (first on line \(earlier.line)); merge the two sections")
        }
        if let value = top.entries[name] {
            throw TOMLSyntaxError(line: line, column: 1, message: "[\(name)] is already a value on line \(value.line); keep one")
        }
        tables[name] = Table(line: line)
        tableNames.append(name)
    }
}

/// A recursive-descent reader over the file's Unicode scalars.
private struct Parser {
    /// How deep lists and inline tables may nest. The configuration needs one level; the limit
    /// keeps a hostile file from exhausting the stack, and is as deep as TOML test suites go.
    static let deepestNesting = 128

    private let scalars: [Unicode.Scalar]
    private var index = 0
    /// How many lists and inline tables the reader is inside.
    private var depth = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String) {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        self.scalars = scalars
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> TOMLSyntaxError {
        TOMLSyntaxError(line: line, column: column, message: message)
    }

    /// The character at hand, named for a message.
    private var found: String {
        guard let current else { return "the end of the file" }
        switch current {
        case "\n": return "the end of the line"
        case "\r" where peek(1) == "\n": return "the end of the line"
        case "\r": return "a carriage return (U+000D) without a line feed after it"
        case _ where current.value < 0x20 || current.value == 0x7F:
            return "the control character \(current.codePoint)"
        case _ where current.isInvisible:
            return "the invisible character \(current.codePoint)"
        default: return "'\(current)'"
        }
    }

    mutating func parseDocument(into document: inout TOMLDocument) throws(TOMLSyntaxError) {
        var table: String?
        while true {
            skipBlanks()
            guard let scalar = current else { return }
            switch scalar {
            case "#", "\n", "\r":
                try endOfLine()
            case "[":
                let headerLine = line
                index += 1
                if current == "[" {
                    throw error("arrays of tables ([[…]]) are not used by the configuration; write a single [section]")
                }
                skipBlanks()
                let name = try key()
                skipBlanks()
                guard current == "]" else { throw error("expected ']' to close the section name, found \(found)") }
                index += 1
                try endOfLine()
                try document.addTable(name, line: headerLine)
                table = name
            default:
                let keyLine = line
                let name = try key()
                skipBlanks()
                guard current == "=" else { throw error("expected '=' after the key \(name), found \(found)") }
                index += 1
                skipBlanks()
                let value = try value()
                try endOfLine()
                try document.add(key: name, entry: .init(value: value, line: keyLine), to: table)
            }
        }
    }

    private mutating func skipBlanks() {
        while current == " " || current == "\t" { index += 1 }
    }

    /// Blanks, an optional comment, then a line break or the end of the file.
    private mutating func endOfLine() throws(TOMLSyntaxError) {
        skipBlanks()
        if current == "#" {
            index += 1
            while let scalar = current, scalar != "\n", scalar != "\r" {
                if isControl(scalar) && scalar != "\t" { throw error("\(found) is not allowed in a comment") }
                index += 1
            }
        }
        switch current {
        case nil: return
        case "\n": newLine(after: 1)
        case "\r" where peek(1) == "\n": newLine(after: 2)
        default: throw error("expected the end of the line, found \(found)")
        }
    }

    private mutating func newLine(after count: Int) {
        index += count
        line += 1
        lineStart = index
    }

    private func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }

    private mutating func key() throws(TOMLSyntaxError) -> String {
        let name: String
        switch current {
        case "\"": name = try basicString()
        case "'": name = try literalString()
        case let scalar? where Self.isBare(scalar):
            var text = ""
            while let scalar = current, Self.isBare(scalar) {
                text.unicodeScalars.append(scalar)
                index += 1
            }
            name = text
        default:
            throw error("expected a key (letters, digits, _ or -), found \(found)")
        }
        skipBlanks()
        if current == "." {
            throw error("dotted keys (\(name).…) are not used by the configuration; write the key under its [\(name)] section")
        }
        return name
    }

    private mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        switch current {
        case "\"": .string(try basicString())
        case "'": .string(try literalString())
        case "[": try array()
        case "{": try inlineTable()
        case nil, "\n", "\r", "#": throw error("expected a value after '=', found \(found)")
        default: try scalarValue()
        }
    }

    private mutating func basicString() throws(TOMLSyntaxError) -> String {
        if peek(1) == "\"" && peek(2) == "\"" {
            throw error("multi-line strings (\"\"\"…\"\"\") are not used by the configuration; write the text on one line")
        }
        index += 1
        var text = ""
        while true {
            guard let scalar = current, scalar != "\n", scalar != "\r" else {
                throw error("this text has no closing '\"' on its line")
            }
            index += 1
            switch scalar {
            case "\"":
                return text
            case "\\":
                try escape(into: &text)
            case _ where isControl(scalar) && scalar != "\t":
                index -= 1
                throw error("\(found) is not allowed in text; write it as an escape such as \\t or \\u0000")
            default:
                text.unicodeScalars.append(scalar)
            }
        }
    }

    private mutating func escape(into text: inout String) throws(TOMLSyntaxError) {
        guard let scalar = current else { throw error("an escape (\\) ends the file") }
        index += 1
        switch scalar {
        case "b": text += "\u{08}"
        case "t": text += "\t"
        case "n": text += "\n"
        case "f": text += "\u{0C}"
        case "r": text += "\r"
        case "\"": text += "\""
        case "\\": text += "\\"
        case "u", "U":
            let digits = scalar == "u" ? 4 : 8
            var hex = ""
            for _ in 0..<digits {
                guard let digit = current, digit.properties.isASCIIHexDigit else {
                    throw error("\\\(scalar) needs \(digits) hexadecimal digits")
                }
                hex.unicodeScalars.append(digit)
                index += 1
            }
            guard let value = UInt32(hex, radix: 16), let escaped = Unicode.Scalar(value) else {
                throw error("\\\(scalar)\(hex) is not a Unicode character")
            }
            text.unicodeScalars.append(escaped)
        default:
            index -= 1
            // The scalar may be a line break or any control character: spelt, never raw.
            throw error("\\\(String(scalar).shown()) is not an escape TOML knows; write \\\\ for a backslash")
        }
    }

    private mutating func literalString() throws(TOMLSyntaxError) -> String {
        if peek(1) == "'" && peek(2) == "'" {
            throw error("multi-line strings ('''…''') are not used by the configuration; write the text on one line")
        }
        index += 1
        var text = ""
        while true {
            guard let scalar = current, scalar != "\n", scalar != "\r" else {
                throw error("this text has no closing \"'\" on its line")
            }
            if scalar == "'" {
                index += 1
                return text
            }
            if isControl(scalar) && scalar != "\t" { throw error("\(found) is not allowed in text") }
            text.unicodeScalars.append(scalar)
            index += 1
        }
    }

    /// Blanks, comments and line breaks between the items of a list.
    private mutating func skipInsideArray() throws(TOMLSyntaxError) {
        while true {
            skipBlanks()
            switch current {
            case "#", "\n": try endOfLine()
            case "\r" where peek(1) == "\n": try endOfLine()
            default: return
            }
        }
    }

    /// Enters a list or an inline table, refusing one nested deeper than ``deepestNesting``.
    private mutating func enterNesting() throws(TOMLSyntaxError) {
        guard depth < Self.deepestNesting else {
            throw error("lists and tables nest more than \(Self.deepestNesting) deep here; the configuration needs no list inside a list")
        }
        depth += 1
    }

    private mutating func array() throws(TOMLSyntaxError) -> TOMLValue {
        try enterNesting()
        defer { depth -= 1 }
        index += 1
        var items: [TOMLValue] = []
        while true {
            try skipInsideArray()
            if current == "]" {
                index += 1
                return .array(items)
            }
            items.append(try value())
            try skipInsideArray()
            switch current {
            case ",": index += 1
            case "]": continue
            default: throw error("expected ',' or ']' in the list, found \(found)")
            }
        }
    }

    private mutating func inlineTable() throws(TOMLSyntaxError) -> TOMLValue {
        try enterNesting()
        defer { depth -= 1 }
        index += 1
        skipBlanks()
        if current == "}" {
            index += 1
            return .inlineTable
        }
        var seen: Set<String> = []
        while true {
            skipBlanks()
            let keyStart = index
            let name = try key()
            guard seen.insert(name).inserted else {
                index = keyStart
                throw error("\(name) is given twice in this table")
            }
            skipBlanks()
            guard current == "=" else { throw error("expected '=' after the key \(name), found \(found)") }
            index += 1
            skipBlanks()
            _ = try value()
            skipBlanks()
            switch current {
            case ",": index += 1
            case "}":
                index += 1
                return .inlineTable
            default: throw error("expected ',' or '}' in the table, found \(found)")
            }
        }
    }

    /// A number, a boolean or a date/time: one run of the characters those are made of.
    private mutating func scalarValue() throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        var token = ""
        func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "+", "-", ".", ":": true
            default: false
            }
        }
        while let scalar = current, isTokenScalar(scalar) {
            token.unicodeScalars.append(scalar)
            index += 1
        }
        // A date and a time may be separated by a space: 1979-05-27 07:32:00.
        if Self.looksLikeDate(token), current == " ", let next = peek(1), ("0"..."9").contains(next) {
            token += " "
            index += 1
            while let scalar = current, isTokenScalar(scalar) {
                token.unicodeScalars.append(scalar)
                index += 1
            }
        }
        if token.isEmpty { throw error("expected a value after '=', found \(found)") }
        if let value = Self.classify(token) { return value }
        index = start
        if case .beyond64Bits = Self.integer(token) {
            throw error("\(token.shown()) is beyond the 64-bit integers a TOML reader keeps; no key of the configuration takes a number near that")
        }
        throw error("\(token.shown()) is not a value TOML knows: write text in quotes, a number, true or false, or a list in brackets")
    }

    private static func looksLikeDate(_ token: String) -> Bool {
        let scalars = Array(token.unicodeScalars)
        return scalars.count == 10 && scalars[4] == "-" && scalars[7] == "-"
    }

    private static func classify(_ token: String) -> TOMLValue? {
        switch token {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        // A date begins with a year's four digits and a hyphen, a time with two digits and a
        // colon: no number does (a float's exponent puts an "e" before its sign: 2.1e-251).
        let scalars = Array(token.unicodeScalars)
        let digit: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) }
        if (scalars.count >= 5 && scalars[2] == ":" && scalars[..<2].allSatisfy(digit))
            || (scalars.count >= 8 && scalars[4] == "-" && scalars[..<4].allSatisfy(digit)) {
            return isDateTime(token) ? .dateTime(token) : nil
        }
        if case .value(let integer) = integer(token) { return .integer(integer) }
        if let float = float(token) { return .float(float) }
        return nil
    }

    /// Whether `token` is one of TOML 1.0's four date and time forms, exactly as RFC 3339
    /// writes them: an offset date-time, a local date-time, a local date or a local time. The
    /// date must exist (no February 30th) in years 1 to 9999, as in Python's `tomllib`, the
    /// reference reader the tests compare with.
    static func isDateTime(_ token: String) -> Bool {
        var scanner = DateScanner(Array(token.unicodeScalars))
        if scanner.peek(2) == ":" { return scanner.time() && scanner.atEnd }
        guard scanner.date() else { return false }
        if scanner.atEnd { return true }
        guard scanner.take(["T", "t", " "]), scanner.time() else { return false }
        if scanner.atEnd { return true }
        if scanner.take(["Z", "z"]) { return scanner.atEnd }
        return scanner.take(["+", "-"]) && scanner.number(2, in: 0...23) && scanner.take([":"])
            && scanner.number(2, in: 0...59) && scanner.atEnd
    }

    /// Digits with single underscores between them, as TOML allows.
    private static func digits(_ text: Substring, allowed: (Unicode.Scalar) -> Bool) -> String? {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              first != "_", last != "_", !text.contains("__") else { return nil }
        let plain = text.filter { $0 != "_" }
        guard !plain.isEmpty, plain.unicodeScalars.allSatisfy(allowed) else { return nil }
        return plain
    }

    /// An integer token: its value, or too large for the 64 bits a TOML reader keeps.
    private enum Integer {
        case value(Int)
        case beyond64Bits
    }

    /// What `token` is as an integer; nil when it is not written as one.
    private static func integer(_ token: String) -> Integer? {
        let isDecimal: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where token.hasPrefix(prefix) {
            let body = token.dropFirst(2)
            guard let plain = digits(body, allowed: { Int(String($0), radix: radix) != nil }) else { return nil }
            return Int(plain, radix: radix).map(Integer.value) ?? .beyond64Bits
        }
        var body = Substring(token)
        var sign = ""
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            body = body.dropFirst()
        }
        guard let plain = digits(body, allowed: isDecimal) else { return nil }
        // TOML forbids leading zeros, which some would read as octal.
        if plain.count > 1 && plain.hasPrefix("0") { return nil }
        return Int(sign + plain).map(Integer.value) ?? .beyond64Bits
    }

    private static func float(_ token: String) -> Double? {
        var body = Substring(token)
        if let first = body.first, first == "+" || first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false) }
        guard let mantissa = parts.first, parts.count <= 2 else { return nil }
        let isDecimal: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) }
        let halves = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard halves.count <= 2, halves.allSatisfy({ digits($0, allowed: isDecimal) != nil }) else { return nil }
        // The whole part follows the integers' rule: no leading zero.
        if let whole = digits(halves[0], allowed: isDecimal), whole.count > 1, whole.hasPrefix("0") { return nil }
        guard halves.count == 2 || parts.count == 2 else { return nil }
        if parts.count == 2 {
            var exponent = parts[1]
            if let first = exponent.first, first == "+" || first == "-" { exponent = exponent.dropFirst() }
            guard digits(exponent, allowed: isDecimal) != nil else { return nil }
        }
        return Double(token.filter { $0 != "_" })
    }
}

/// Reads the fields of a date or time one at a time, each with its exact width and range.
private struct DateScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var atEnd: Bool { index == scalars.count }

    func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }

    /// Takes one of `choices`, if it is next.
    mutating func take(_ choices: Set<Unicode.Scalar>) -> Bool {
        guard let next = peek(0), choices.contains(next) else { return false }
        index += 1
        return true
    }

    /// Takes exactly `width` digits whose value is in `range`.
    mutating func number(_ width: Int, in range: ClosedRange<Int>) -> Bool {
        value(width).map(range.contains) ?? false
    }

    private mutating func value(_ width: Int) -> Int? {
        guard index + width <= scalars.count else { return nil }
        var result = 0
        for scalar in scalars[index..<index + width] {
            guard let digit = Int(String(scalar)), ("0"..."9").contains(scalar) else { return nil }
            result = result * 10 + digit
        }
        index += width
        return result
    }

    /// `YYYY-MM-DD`, a day that exists.
    mutating func date() -> Bool {
        guard let year = value(4), (1...9999).contains(year), take(["-"]), let month = value(2), (1...12).contains(month),
              take(["-"]), let day = value(2) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// `HH:MM:SS`, with any number of digits of a fraction after a point.
    mutating func time() -> Bool {
        guard number(2, in: 0...23), take([":"]), number(2, in: 0...59), take([":"]), number(2, in: 0...59) else { return false }
        guard take(["."]) else { return true }
        let start = index
        while let next = peek(0), ("0"..."9").contains(next) { index += 1 }
        return index > start
    }
}
