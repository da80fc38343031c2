import Basics
import Testing
@testable import ConfigurationFile

/// A syntax error the reader must report, and where.
struct BadTOML: Sendable, CustomTestStringConvertible {
    let text: String
    let line: Int
    let column: Int
    let message: String
    var testDescription: String { message + (text.count > 100 ? " (\(text.count) characters)" : "") }
}

private let badTOML: [BadTOML] = [
    BadTOML(text: "a = ", line: 1, column: 5, message: "expected a value after '=', found the end of the file"),
    BadTOML(text: "a = 1 2", line: 1, column: 7, message: "expected the end of the line, found '2'"),
    BadTOML(text: "a 1", line: 1, column: 3, message: "expected '=' after the key a, found '1'"),
    BadTOML(text: "\n\na = \"open", line: 3, column: 10, message: "this text has no closing '\"' on its line"),
    BadTOML(text: "a = 'open", line: 1, column: 10, message: "this text has no closing \"'\" on its line"),
    BadTOML(text: "a = \"\\q\"", line: 1, column: 7, message: "\\q is not an escape TOML knows; write \\\\ for a backslash"),
    BadTOML(text: "a = \"x\u{1}\"", line: 1, column: 7, message: "the control character U+0001 is not allowed in text; write it as an escape such as \\t or \\u0000"),
    BadTOML(text: "a = 07", line: 1, column: 5, message: "07 is not a value TOML knows: write text in quotes, a number, true or false, or a list in brackets"),
    BadTOML(text: "a = 1__0", line: 1, column: 5, message: "1__0 is not a value TOML knows: write text in quotes, a number, true or false, or a list in brackets"),
    BadTOML(text: "a = yes", line: 1, column: 5, message: "yes is not a value TOML knows: write text in quotes, a number, true or false, or a list in brackets"),
    BadTOML(text: "a = 99999999999999999999", line: 1, column: 5, message: "99999999999999999999 is beyond the 64-bit integers a TOML reader keeps; no key of the configuration takes a number near that"),
    BadTOML(text: "a = 1979-02-29", line: 1, column: 5, message: "1979-02-29 is not a value TOML knows: write text in quotes, a number, true or false, or a list in brackets"),
    BadTOML(text: "a = 24:00:00", line: 1, column: 5, message: "24:00:00 is not a value TOML knows: write text in quotes, a number, true or false, or a list in brackets"),
    BadTOML(text: "a = 01.5", line: 1, column: 5, message: "01.5 is not a value TOML knows: write text in quotes, a number, true or false, or a list in brackets"),
    BadTOML(text: "a = \"\\e\"", line: 1, column: 7, message: "\\e is not an escape TOML knows; write \\\\ for a backslash"),
    BadTOML(text: "a = [1, 2", line: 1, column: 10, message: "expected ',' or ']' in the list, found the end of the file"),
    BadTOML(text: "a = [1 2]", line: 1, column: 8, message: "expected ',' or ']' in the list, found '2'"),
    BadTOML(text: "a.b = 1", line: 1, column: 2, message: "dotted keys (a.…) are not used by the configuration; write the key under its [a] section"),
    BadTOML(text: "[[a]]", line: 1, column: 2, message: "arrays of tables ([[…]]) are not used by the configuration; write a single [section]"),
    BadTOML(text: "a = \"\"\"x\"\"\"", line: 1, column: 5, message: "multi-line strings (\"\"\"…\"\"\") are not used by the configuration; write the text on one line"),
    BadTOML(text: "[a\nb = 1", line: 1, column: 3, message: "expected ']' to close the section name, found the end of the line"),
    BadTOML(text: "a = 1\na = 2", line: 2, column: 1, message: "a is given twice (first on line 1); keep one"),
    BadTOML(text: "[t]\n[t]", line: 2, column: 1, message: "[t] is given twice (first on line 1); merge the two sections"),
    BadTOML(text: "t = 1\n[t]", line: 2, column: 1, message: "[t] is already a value on line 1; keep one"),
    BadTOML(text: "a = 1 # ok\u{7F}", line: 1, column: 11, message: "the control character U+007F is not allowed in a comment"),
    BadTOML(text: "a = {b = 1, b = 2}", line: 1, column: 13, message: "b is given twice in this table"),
    BadTOML(text: "= 1", line: 1, column: 1, message: "expected a key (letters, digits, _ or -), found '='"),
    BadTOML(text: "a = 1\r", line: 1, column: 6, message: "expected the end of the line, found a carriage return (U+000D) without a line feed after it"),
    // Tens of thousands deep crashed the reader's stack; the limit is the nesting depth.
    BadTOML(text: "\na = " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000), line: 2, column: 133,
            message: "lists and tables nest more than 128 deep here; the configuration needs no list inside a list"),
    BadTOML(text: "a = " + String(repeating: "{b = ", count: 50_000) + "1" + String(repeating: "}", count: 50_000), line: 1, column: 645,
            message: "lists and tables nest more than 128 deep here; the configuration needs no list inside a list"),
]

@Suite("TOML reading")
struct TOMLDocumentTests {
    @Test("every value kind is read, with the line of each key and table")
    func values() throws {
        let document = try TOMLDocument(parsing: """
            # a comment
            name = "Al\\tice \\u00e9"   # trailing comment
            path = 'C:\\dir'
            count = -1_000
            mask = 0xff
            ratio = 1.5e3
            on = true
            when = 1979-05-27 07:32:00Z
            inline = { a = 1, b = [2] }

            [lines]
            rows = [
              23,  # first
              24,
              25,
            ]
            empty = []
            """)
        #expect(document.top.keys == ["name", "path", "count", "mask", "ratio", "on", "when", "inline"])
        #expect(document.top.entries["name"] == .init(value: .string("Al\tice é"), line: 2))
        #expect(document.top.entries["path"]?.value == .string("C:\\dir"))
        #expect(document.top.entries["count"]?.value == .integer(-1000))
        #expect(document.top.entries["mask"]?.value == .integer(255))
        #expect(document.top.entries["ratio"]?.value == .float(1500))
        #expect(document.top.entries["on"]?.value == .boolean(true))
        #expect(document.top.entries["when"]?.value == .dateTime("1979-05-27 07:32:00Z"))
        #expect(document.top.entries["inline"]?.value == .inlineTable)
        #expect(document.tableNames == ["lines"])
        #expect(document.tables["lines"]?.line == 11)
        #expect(document.tables["lines"]?.entries["rows"] == .init(value: .array([.integer(23), .integer(24), .integer(25)]), line: 12))
        #expect(document.tables["lines"]?.entries["empty"] == .init(value: .array([]), line: 17))
    }

    @Test("Windows line endings and a byte-order mark read like plain lines")
    func lineEndings() throws {
        let document = try TOMLDocument(parsing: "\u{FEFF}# comment\r\na = 1\r\n[t]\r\nb = \"x\"\r\n")
        #expect(document.top.entries["a"] == .init(value: .integer(1), line: 2))
        #expect(document.tables["t"]?.entries["b"] == .init(value: .string("x"), line: 4))
    }

    @Test("a float whose exponent's sign stands where a date has its hyphen is a float, and a date is still a date (found by make fuzz)")
    func exponentNotDate() throws {
        let document = try TOMLDocument(parsing: "a = 2.1e-251\nb = 1.5E+300\nc = 1979-05-27\nd = 07:32:00\n")
        #expect(document.top.entries["a"]?.value == .float(2.1e-251))
        #expect(document.top.entries["b"]?.value == .float(1.5e300))
        #expect(document.top.entries["c"]?.value == .dateTime("1979-05-27"))
        #expect(document.top.entries["d"]?.value == .dateTime("07:32:00"))
    }

    @Test("a syntax error names its line and column and what is wrong", arguments: badTOML)
    func syntaxError(_ bad: BadTOML) {
        #expect(throws: TOMLSyntaxError(line: bad.line, column: bad.column, message: bad.message)) {
            try TOMLDocument(parsing: bad.text)
        }
    }

    @Test("values are described the way the configuration's messages name them")
    func described() {
        #expect(TOMLValue.string("3").described == "text (\"3\")")
        #expect(TOMLValue.integer(23).described == "a number (23)")
        #expect(TOMLValue.float(1.5).described == "a decimal number (1.5)")
        #expect(TOMLValue.boolean(false).described == "true/false")
        #expect(TOMLValue.dateTime("1979-05-27").described == "a date or time")
        #expect(TOMLValue.array([]).described == "a list")
        #expect(TOMLValue.inlineTable.described == "a table")
    }
}

@Suite("Reading text files")
struct TextFileTests {
    @Test("each way a file cannot be read gets its own sentence")
    func failures() {
        func reason(_ path: String) -> String? {
            do { _ = try TextFile.read(path); return nil } catch { return error.reason }
        }
        #expect(reason("/nonexistent/tictactoe.toml") == "cannot read the file: no such file or directory")
        #expect(reason("/tmp") == "cannot read the file: it is a directory")
        #expect(reason("/dev/null") == "cannot read the file: it is a device, not a regular file")
        #expect(reason("") == "cannot read the file: the path is empty")
    }
}
