import Basics
import Testing
@testable import ConfigurationFile

private func settings(_ text: String) throws(ConfigurationError) -> NetworkSettings {
    try NetworkSettings(reading: ConfigurationDocument(parsing: text, file: "network.toml"))
}

/// A bad `[network]` table: the key the error names and its message.
private let badTables: [(text: String, key: String, message: String)] = [
    ("broker = \"localhost\"", "network.broker", "network.broker is \"localhost\"; it must be \(BrokerAddress.form)."),
    ("broker = \"localhost:0\"", "network.broker", "network.broker is \"localhost:0\"; it must be \(BrokerAddress.form)."),
    ("broker = \"evil/host:1883\"", "network.broker", "network.broker is \"evil/host:1883\"; it must be \(BrokerAddress.form)."),
    ("name = \"Kitchen\"", "network.name", "network.name is \"Kitchen\"; it must be \"\" or \(BoardName.form)."),
    ("name = \"a/#\"", "network.name", "network.name is \"a/#\"; it must be \"\" or \(BoardName.form)."),
    ("name = \"-x\"", "network.name", "network.name is \"-x\"; it must be \"\" or \(BoardName.form)."),
    ("allow = \"all\"", "network.allow", "network.allow is \"all\"; it must be \"play\" or \"watch\"."),
    ("ca-file = \"certs/ca.pem\"", "network.ca-file", "network.ca-file is \"certs/ca.pem\"; it must be \"\" or an absolute path."),
    ("user = \"a b\"", "network.user", "network.user is \"a b\"; it must be at most 128 characters, without spaces or control characters."),
    ("password-file = \"/etc/p\"", "network.password-file", "network.password-file is given without network.user: give the user the password is for."),
    ("certificate = \"/c.pem\"\nca-file = \"/ca.pem\"", "network.certificate", "network.certificate and network.certificate-key go together: give both, or neither."),
    ("certificate = \"/c.pem\"\ncertificate-key = \"/k.pem\"", "network.certificate", "network.certificate needs TLS: give network.ca-file, the authorities the broker's certificate is checked by."),
    ("discovery = \"home/#\"", "network.discovery", "network.discovery is \"home/#\"; it must be \"\" or topic levels of letters, digits, - and _, such as \"homeassistant\"."),
    ("discovery = \"/ha\"", "network.discovery", "network.discovery is \"/ha\"; it must be \"\" or topic levels of letters, digits, - and _, such as \"homeassistant\"."),
    ("password = \"secret\"", "network.password", "unknown key network.password; [network] has broker, name, allow, ca-file, user, password-file, certificate, certificate-key, discovery. Remove it or fix its spelling."),
]

@Suite("The link's settings, the [network] table")
struct NetworkSettingsTests {
    @Test("a file without [network] gives the defaults: a broker on this machine, the host's name, only watching")
    func noTable() throws {
        let read = try settings("chip = \"auto\"\n")
        #expect(read == NetworkSettings())
        #expect(read.broker == BrokerAddress(host: "localhost", port: 1883) && read.name.isEmpty && read.allow == .watch && !read.usesTLS)
    }

    @Test("every key is read")
    func everyKey() throws {
        let read = try settings("""
            [network]
            broker = "[fd00::1]:8883"
            name = "grandma-1"
            allow = "play"
            ca-file = "/etc/tictactoe/ca.pem"
            user = "grandma"
            password-file = "/etc/tictactoe/network-password"
            certificate = "/etc/tictactoe/board.pem"
            certificate-key = "/etc/tictactoe/board.key"
            discovery = "ha/discovery"
            """)
        #expect(read.broker == BrokerAddress(host: "fd00::1", port: 8883) && read.broker.description == "[fd00::1]:8883")
        #expect(read.name == "grandma-1" && read.allow == .play && read.usesTLS && read.user == "grandma")
        #expect(read.passwordFile == "/etc/tictactoe/network-password" && read.certificate == "/etc/tictactoe/board.pem" && read.certificateKey == "/etc/tictactoe/board.key")
        #expect(read.discovery == "ha/discovery")
    }

    @Test("a bad [network] table is refused on its key's line, saying what to write", arguments: 0..<badTables.count)
    func badTable(_ index: Int) {
        let bad = badTables[index]
        let text = "[network]\n" + bad.text + "\n"
        let keyLine = (text.split(separator: "\n").firstIndex { $0.hasPrefix(bad.key.dropFirst("network.".count) + " ") } ?? -1) + 1
        #expect(throws: ConfigurationError(file: "network.toml", line: keyLine, key: bad.key, message: bad.message)) {
            try settings(text)
        }
    }

    @Test("a board's name can be no topic's wildcard or separator, and no longer than 32")
    func names() {
        #expect(BoardName.isValid("kitchen") && BoardName.isValid("a") && BoardName.isValid(String(repeating: "a", count: 32)))
        for name in ["", "+", "#", "a/b", "A", "ä", " x", String(repeating: "a", count: 33), "-a"] { #expect(!BoardName.isValid(name), "\(name)") }
    }

    @Test("each key's default is written from NetworkSettings(), and its reading takes it back")
    func defaultsRoundTrip() throws {
        let text = "[network]\n" + NetworkSettings.Key.allCases.map { "\($0.name) = \($0.defaultText)" }.joined(separator: "\n") + "\n"
        #expect(try settings(text) == NetworkSettings())
    }
}
