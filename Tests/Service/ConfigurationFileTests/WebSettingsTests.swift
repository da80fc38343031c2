import Foundation
import Testing
@testable import ConfigurationFile
import TestSupport

/// The project's configuration file, every key at its default.
private let defaultText: String = {
    let file = repositoryRoot
        .appendingPathComponent(InstalledConfiguration.projectCopy)
    return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
}()

private func settings(_ text: String) throws(ConfigurationError) -> WebSettings {
    try WebSettings(reading: ConfigurationDocument(parsing: text, file: "web.toml"))
}

private func line(of text: String, containing needle: String) -> Int {
    (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) } ?? -1) + 1
}

struct BadWebFile: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    /// Where the error must point: the line containing this text.
    let at: String
    let key: String
    let message: String
    var testDescription: String { name }
}

private let badFiles: [BadWebFile] = [
    BadWebFile(name: "no port", text: "[web]\nlisten = \"*\"\n", at: "listen", key: "web.listen",
               message: "web.listen is \"*\"; it must be \(ListenAddress.form), with a port 1–65535."),
    BadWebFile(name: "port 0", text: "[web]\nlisten = \"*:0\"\n", at: "listen", key: "web.listen",
               message: "web.listen is \"*:0\"; it must be \(ListenAddress.form), with a port 1–65535."),
    BadWebFile(name: "a number for the address", text: "[web]\nlisten = 8080\n", at: "listen", key: "web.listen",
               message: "web.listen must be text in quotes, not a number (8080)."),
    BadWebFile(name: "unknown access", text: "[web]\nallow = \"everything\"\n", at: "allow", key: "web.allow",
               message: "web.allow is \"everything\"; it must be \"play\" or \"watch\"."),
    BadWebFile(name: "one host, not a list", text: "[web]\nhosts = \"board.home.arpa\"\n", at: "hosts", key: "web.hosts",
               message: "web.hosts must be a list of host names in brackets, such as [\"board.home.arpa\"], not text (\"board.home.arpa\")."),
    BadWebFile(name: "a host with a slash", text: "[web]\nhosts = [\"a.b\", \"evil/x\"]\n", at: "hosts", key: "web.hosts",
               message: "web.hosts item 2 must be a host name or address in quotes (letters, digits, dots, hyphens), not text (\"evil/x\")."),
    BadWebFile(name: "unknown key in [web]", text: "[web]\nlisen = \"*:80\"\n", at: "lisen", key: "web.lisen",
               message: "unknown key web.lisen; [web] has listen, allow, hosts. Remove it or fix its spelling."),
    BadWebFile(name: "web as a value", text: "web = \"*:8080\"\n", at: "web =", key: "web",
               message: "web must be a table, written as a [web] section, not a single value."),
    BadWebFile(name: "a syntax error in the board's table", text: "[buttons]\nnew_game = = 3\n[web]\nallow = \"watch\"\n", at: "new_game", key: "",
               message: "not valid TOML at column 12: expected a value after '=', found '='. Fix the syntax (compare with Hardware/tictactoe.toml)."),
]

@Suite("The web view's settings, read from the configuration file")
struct WebSettingsTests {
    @Test("the default file gives the defaults")
    func defaultFile() throws {
        #expect(!defaultText.isEmpty)
        #expect(try settings(defaultText) == WebSettings())
    }

    @Test("a file without [web] gives the defaults")
    func noTable() throws {
        #expect(try settings("chip = \"auto\"\n") == WebSettings())
    }

    @Test("every key is read")
    func everyKey() throws {
        let read = try settings("[web]\nlisten = \"[::1]:8000\"\nallow = \"watch\"\nhosts = [\"board.home.arpa\", \"10.0.0.2\"]\n")
        #expect(read.listen == ListenAddress(host: "::1", port: 8000))
        #expect(read.allow == .watch)
        #expect(read.hosts == ["board.home.arpa", "10.0.0.2"])
    }

    @Test("a bad [web] table, or a file that is not TOML, is refused with its line, the key and what to do", arguments: badFiles)
    func badFile(_ bad: BadWebFile) {
        #expect(throws: ConfigurationError(file: "web.toml", line: line(of: bad.text, containing: bad.at), key: bad.key, message: bad.message)) {
            try settings(bad.text)
        }
    }

    @Test("the board's tables are the board's to check: a wiring the web view never uses does not stop it")
    func boardTablesLeftToTheBoard() throws {
        let text = defaultText
            .replacingOccurrences(of: "new_game = 3", with: "new_game = \"three\"")
            .replacingOccurrences(of: "[web]\n", with: "[webs]\nx = 1\n[web]\n")
            .replacingOccurrences(of: "allow = \"play\"", with: "allow = \"watch\"")
        #expect(text.contains("[webs]") && text.contains("allow = \"watch\""), "the default file changed: edit this test")
        #expect(try settings(text).allow == .watch)
    }

    @Test("a missing file says how to get one")
    func missingFile() {
        #expect {
            try WebSettings.load(file: "/nonexistent/tictactoe.toml")
        } throws: { error in
            (error as? ConfigurationError)?.description.hasPrefix("/nonexistent/tictactoe.toml: cannot read the file") == true
        }
    }

    @Test("each key's default is written from WebSettings(), and its reading takes it back")
    func defaultsRoundTrip() throws {
        let text = "[web]\n" + WebSettings.Key.allCases.map { "\($0.name) = \($0.defaultText)" }.joined(separator: "\n") + "\n"
        #expect(try settings(text) == WebSettings())
    }
}
