import Testing
import WebRules

@Suite("Host and Origin checks")
struct HostPolicyTests {
    let policy = HostPolicy(machineName: "tictactoe", extraHosts: ["board.home.arpa"])
    let addresses: Set<String> = ["192.168.1.20", "fe80::1", "::1", "127.0.0.1"]

    @Test("the machine's names, addresses, localhost and web.hosts are answered, on any port", arguments: [
        "tictactoe", "tictactoe:8080", "TicTacToe.local:8080", "tictactoe.local.", "localhost:8080", "127.0.0.1:8080",
        "192.168.1.20", "192.168.1.20:80", "[fe80::1]:8080", "[::1]:8080", "board.home.arpa", "BOARD.home.arpa:8080",
    ])
    func allowed(host: String) {
        #expect(policy.refusal(host: host, addresses: addresses) == nil)
    }

    @Test("any other name (DNS rebinding) or address is refused, and the refusal says what to do", arguments: [
        "attacker.example", "attacker.example:8080", "tictactoe.example", "192.168.1.21:8080", "[fe80::2]:8080", "10.0.0.1",
        "localhost.attacker.example", "",
    ])
    func refused(host: String) {
        let refusal = policy.refusal(host: host, addresses: addresses)
        #expect(refusal != nil)
        if !host.isEmpty { #expect(refusal?.contains("web.hosts") == true) }
    }

    @Test("a Host that is not host[:port] is refused, whatever name it starts with", arguments: [
        "tictactoe:8080@attacker.example", "tictactoe@attacker.example", "tictactoe:80:80", "tictactoe:", "tictactoe:99999",
        "tictactoe:+80", "tictactoe:123456", "tic tac", "tictactoe/x", "[::1]x", "[::1]:", "[tictactoe]:8080", "127.0.0.1:8080#",
        "localhost%00", "[::1",
    ])
    func malformedHost(host: String) {
        #expect(policy.refusal(host: host, addresses: addresses) != nil)
    }

    @Test("a request without a Host header is refused")
    func noHost() {
        #expect(policy.refusal(host: nil, addresses: addresses) != nil)
    }

    @Test("a WebSocket opens only from the board's own page: Origin is http:// and the very Host")
    func origins() {
        #expect(policy.upgradeRefusal(host: "tictactoe.local:8080", origin: "http://tictactoe.local:8080", addresses: addresses) == nil)
        #expect(policy.upgradeRefusal(host: "192.168.1.20:8080", origin: "http://192.168.1.20:8080", addresses: addresses) == nil)
        // Cross-site WebSocket hijacking: a hostile page in the visitor's browser.
        #expect(policy.upgradeRefusal(host: "tictactoe.local:8080", origin: "http://attacker.example", addresses: addresses) != nil)
        // The same host on another port is another origin.
        #expect(policy.upgradeRefusal(host: "tictactoe.local:8080", origin: "http://tictactoe.local:9000", addresses: addresses) != nil)
        #expect(policy.upgradeRefusal(host: "tictactoe.local:8080", origin: "https://tictactoe.local:8080", addresses: addresses) != nil)
        #expect(policy.upgradeRefusal(host: "tictactoe.local:8080", origin: "null", addresses: addresses) != nil)
        #expect(policy.upgradeRefusal(host: "tictactoe.local:8080", origin: nil, addresses: addresses) != nil)
        // A matching Origin does not excuse a foreign Host.
        #expect(policy.upgradeRefusal(host: "attacker.example", origin: "http://attacker.example", addresses: addresses) != nil)
    }

    @Test("the machine's name under another domain gives its .local name by its first label")
    func mdnsName() {
        let policy = HostPolicy(machineName: "board.lan")
        #expect(policy.names.isSuperset(of: ["board.lan", "board.local", "localhost"]))
    }

    @Test("addresses are compared in one spelling")
    func canonical() {
        #expect(HostPolicy.canonicalAddress("FE80:0:0::1") == "fe80::1")
        #expect(HostPolicy.canonicalAddress("192.168.001.020") == nil || HostPolicy.canonicalAddress("192.168.001.020") == "192.168.1.20")
        #expect(HostPolicy.canonicalAddress("tictactoe") == nil)
    }
}
