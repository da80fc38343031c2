import Basics

/// The `[network]` table, written once: each key's name, meaning, allowed values, default and
/// reading. `tictactoe-network` reads the table with these; the board's schema lists them among
/// its own keys, so that `tictactoe check-config`, the default file and docs/CONFIGURATION.md's
/// table cover them too.
extension NetworkSettings {
    /// The table's name in the file.
    public static let table = "network"

    /// What the table is for: the default file's comment above it.
    public static let tableDocumentation =
        "The board on an MQTT broker (tictactoe-network, docs/NETWORK.md): off until its service is enabled. The board itself reads none of these."

    /// One key of the `[network]` table.
    public enum Key: String, Sendable, CaseIterable {
        case broker, name, allow
        case caFile = "ca-file"
        case user
        case passwordFile = "password-file"
        case certificate
        case certificateKey = "certificate-key"
        case discovery

        public var name: String { rawValue }

        /// `network.name`: how messages and documents name the key.
        public var path: String { ConfigurationDocument.path(table: NetworkSettings.table, key: name) }

        /// What the key means, in sentences: the default file's comment and docs/CONFIGURATION.md's column.
        public var documentation: String {
            switch self {
            case .broker: "The MQTT broker (mosquitto, say) the board's state is published on."
            case .name:
                "The board's name on the broker: its topics are tictactoe/<name>/…. Empty: the machine's host name. Give every board on one broker its own."
            case .allow:
                "\"watch\": the board is only published. \"play\": messages on tictactoe/<name>/commands may press cells, start games and choose the opponent (let only your own clients publish there: docs/NETWORK.md's access list)."
            case .caFile:
                "The certificate authorities the broker's certificate must be signed by (a PEM file): given, the link speaks TLS and checks the broker's certificate and name. Empty: no TLS, for a broker on this machine or a network you trust."
            case .user: "The user name the board gives the broker. Empty: none."
            case .passwordFile:
                "A file whose first line is the user's password, readable by the tictactoe-network service alone (never write the password in this file, which anyone may read). Empty: no password."
            case .certificate: "A client certificate (PEM) the board shows the broker, with TLS. Empty: none."
            case .certificateKey: "The client certificate's private key (PEM, unencrypted). Empty: none."
            case .discovery:
                "Home Assistant's MQTT discovery prefix: the board appears there as a device (whose turn, the result, the score, and a new-game button when allow is \"play\"). Empty: it does not announce itself."
            }
        }

        /// What values the key takes, in a few words.
        public var allowed: String {
            switch self {
            case .broker: "\"HOST:PORT\", port 1–65535"
            case .name: "\"\" or " + BoardName.form
            case .allow: NetworkAccess.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            case .user: "\"\" or a user name"
            case .caFile, .passwordFile, .certificate, .certificateKey: "\"\" or an absolute path"
            case .discovery: "\"\" or topic levels of letters, digits, - and _, such as \"homeassistant\""
            }
        }

        /// The default as the file writes it, read from `NetworkSettings()`, where it is set.
        public var defaultText: String {
            let network = NetworkSettings()
            return switch self {
            case .broker: "\"\(network.broker)\""
            case .name: "\"\(network.name)\""
            case .allow: "\"\(network.allow.rawValue)\""
            case .caFile: "\"\(network.caFile)\""
            case .user: "\"\(network.user)\""
            case .passwordFile: "\"\(network.passwordFile)\""
            case .certificate: "\"\(network.certificate)\""
            case .certificateKey: "\"\(network.certificateKey)\""
            case .discovery: "\"\(network.discovery)\""
            }
        }

        /// Sets the key's setting in `settings` from `document`, if the file gives the key;
        /// refuses a value the link cannot use.
        public func read(from document: ConfigurationDocument, into settings: inout NetworkSettings) throws(ConfigurationError) {
            guard let text = try document.text(table: NetworkSettings.table, key: name) else { return }
            let refuse = { () -> ConfigurationError in document.error(path, "\(path) is \(text.quoted()); it must be \(allowed).") }
            switch self {
            case .broker:
                guard let address = BrokerAddress(parsing: text) else {
                    throw document.error(path, "\(path) is \(text.quoted()); it must be \(BrokerAddress.form).")
                }
                settings.broker = address
            case .name:
                guard text.isEmpty || BoardName.isValid(text) else { throw refuse() }
                settings.name = text
            case .discovery:
                guard text.isEmpty || TopicPrefix.isValid(text) else { throw refuse() }
                settings.discovery = text
            case .allow:
                guard let access = NetworkAccess(rawValue: text) else { throw refuse() }
                settings.allow = access
            case .user:
                // Sent in the CONNECT packet as a length-prefixed string: printable, and short.
                guard text.count <= 128, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
                    throw document.error(path, "\(path) is \(text.quoted()); it must be at most 128 characters, without spaces or control characters.")
                }
                settings.user = text
            case .caFile, .passwordFile, .certificate, .certificateKey:
                guard text.isEmpty || (text.hasPrefix("/") && !text.unicodeScalars.contains(where: { $0.value < 0x20 })) else { throw refuse() }
                switch self {
                case .caFile: settings.caFile = text
                case .passwordFile: settings.passwordFile = text
                case .certificate: settings.certificate = text
                default: settings.certificateKey = text
                }
            }
        }
    }

    /// The `[network]` table of `document`, every key not given at its default; refuses keys
    /// that make no sense together (a password without a user, a certificate without TLS).
    public init(reading document: ConfigurationDocument) throws(ConfigurationError) {
        self.init()
        try document.checkTable(Self.table, keys: Key.allCases.map(\.name))
        for key in Key.allCases {
            try key.read(from: document, into: &self)
        }
        if !passwordFile.isEmpty && user.isEmpty {
            throw document.error(Key.passwordFile.path, "\(Key.passwordFile.path) is given without \(Key.user.path): give the user the password is for.")
        }
        if certificate.isEmpty != certificateKey.isEmpty {
            let given = certificate.isEmpty ? Key.certificateKey : Key.certificate
            throw document.error(given.path, "\(Key.certificate.path) and \(Key.certificateKey.path) go together: give both, or neither.")
        }
        if !certificate.isEmpty && !usesTLS {
            throw document.error(Key.certificate.path, "\(Key.certificate.path) needs TLS: give \(Key.caFile.path), the authorities the broker's certificate is checked by.")
        }
    }

    /// The `[network]` table of the file at `path`, which must be readable and TOML throughout.
    public static func load(file path: String) throws(ConfigurationError) -> NetworkSettings {
        try NetworkSettings(reading: ConfigurationDocument.load(file: path))
    }
}
