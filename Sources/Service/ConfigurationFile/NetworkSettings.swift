/// The link to an MQTT broker, the `[network]` table: read by `tictactoe-network`, not by the
/// board, whose own process has no network. Its keys, and how each is read, are in
/// ``NetworkSettings/Key``.
public struct NetworkSettings: Sendable, Hashable {
    /// The broker: mosquitto on the board's own machine unless told otherwise.
    public var broker = BrokerAddress(host: "localhost", port: 1883)
    /// The board's name on the broker, its topics' second level; empty: the machine's host name.
    public var name = ""
    /// Whether messages on the broker may change the game, or only watch it.
    public var allow = NetworkAccess.watch
    /// The certificate authorities that sign the broker's certificate, a PEM file: TLS when given.
    public var caFile = ""
    /// The user name the board gives the broker; empty: none.
    public var user = ""
    /// A file holding the user's password, its first line: never in this file, which anyone may read.
    public var passwordFile = ""
    /// A client certificate (PEM) and its key, instead of or beside a password: with TLS only.
    public var certificate = ""
    public var certificateKey = ""
    /// Home Assistant's MQTT discovery prefix, under which the board announces itself as a
    /// device; empty: it does not.
    public var discovery = "homeassistant"

    public init() {}

    /// Whether the link speaks TLS: it does whenever it is given the authorities to check by.
    public var usesTLS: Bool { !caFile.isEmpty }
}

/// Whether messages on the broker may change the game.
public enum NetworkAccess: String, Sendable, Hashable, CaseIterable {
    /// `tictactoe/<board>/commands` is read: presses, new games, the opponent.
    case play
    /// Commands are not read at all: the board is only shown.
    case watch
}

/// Where the broker listens: a host name or address, and a port.
public struct BrokerAddress: HostAndPort, Sendable, Hashable {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, `[IPv6]:PORT`; nil for anything else, a port of 0 included.
    public init?(parsing text: String) {
        guard let (host, bracketed, port) = Self.parts(of: text), port > 0 else { return nil }
        guard bracketed ? Self.isIPv6(host) : ListenAddress.isHostName(host) && !host.contains(":") else { return nil }
        self.init(host: host, port: port)
    }

    /// What `BrokerAddress(parsing:)` takes, for messages.
    public static let form = "HOST:PORT, such as \"localhost:1883\", \"broker.home.arpa:8883\" or \"[fd00::1]:1883\""
}

/// A prefix of topics (Home Assistant's discovery prefix): levels of letters, digits, `-` and
/// `_`, no wildcard, no empty level.
public enum TopicPrefix {
    public static func isValid(_ prefix: String) -> Bool {
        guard !prefix.isEmpty, prefix.utf8.count <= 64 else { return false }
        return prefix.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { level in
            !level.isEmpty && level.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        }
    }
}
