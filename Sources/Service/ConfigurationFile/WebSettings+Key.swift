import Basics

/// The `[web]` table, written once: each key's name, meaning, allowed values, default and
/// reading. `tictactoe-web` reads the table with these; the board's schema lists them among its
/// own keys, so that `tictactoe check-config`, the default file and docs/CONFIGURATION.md's table
/// cover them too.
extension WebSettings {
    /// The table's name in the file.
    public static let table = "web"

    /// What the table is for: the default file's comment above it.
    public static let tableDocumentation =
        "The web view (the tictactoe-gpio-web package, docs/WEB.md): the board in a browser on the local network. The board itself reads none of these."

    /// One key of the `[web]` table.
    public enum Key: String, Sendable, CaseIterable {
        case listen, allow, hosts

        public var name: String { rawValue }

        /// `web.name`: how messages and documents name the key.
        public var path: String { ConfigurationDocument.path(table: WebSettings.table, key: name) }

        /// What the key means, in sentences: the default file's comment and docs/CONFIGURATION.md's column.
        public var documentation: String {
            switch self {
            case .listen:
                "Where the web view listens: \"*\" is every interface. Its systemd unit lets in only the local network (loopback, link-local and private addresses), whatever this says."
            case .allow:
                "\"play\": anyone who opens the page may press cells, start games and choose the opponent. \"watch\": the page only shows the board."
            case .hosts:
                "Names the board is reached by besides its own host name, <name>.local, localhost and its addresses (a name your router gives it, say). A request naming any other host is refused: a guard against DNS rebinding."
            }
        }

        /// What values the key takes, in a few words.
        public var allowed: String {
            switch self {
            case .listen: "\"ADDRESS:PORT\", port 1–65535"
            case .allow: WebAccess.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            case .hosts: "a list of host names or addresses"
            }
        }

        /// Whether the default file's comment ends with ``allowed``: a list's form shows in its
        /// default, brackets and all, and "Allowed: a list of …" would only repeat it.
        public var commentNamesAllowed: Bool { self != .hosts }

        /// The default as the file writes it, read from `WebSettings()`, where it is set.
        public var defaultText: String {
            let web = WebSettings()
            switch self {
            case .listen: return "\"\(web.listen)\""
            case .allow: return "\"\(web.allow.rawValue)\""
            case .hosts: return "[" + web.hosts.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            }
        }

        /// Sets the key's setting in `settings` from `document`, if the file gives the key;
        /// refuses a value the web view cannot use.
        public func read(from document: ConfigurationDocument, into settings: inout WebSettings) throws(ConfigurationError) {
            switch self {
            case .listen:
                if let address = try listenAddress(in: document) { settings.listen = address }
            case .allow:
                if let access = try access(in: document) { settings.allow = access }
            case .hosts:
                if let names = try hostNames(in: document) { settings.hosts = names }
            }
        }

        private func listenAddress(in document: ConfigurationDocument) throws(ConfigurationError) -> ListenAddress? {
            guard let text = try document.text(table: WebSettings.table, key: name) else { return nil }
            guard let address = ListenAddress(parsing: text), address.port > 0 else {
                throw document.error(path, "\(path) is \(text.quoted()); it must be \(ListenAddress.form), with a port 1–65535.")
            }
            return address
        }

        private func access(in document: ConfigurationDocument) throws(ConfigurationError) -> WebAccess? {
            guard let text = try document.text(table: WebSettings.table, key: name) else { return nil }
            guard let access = WebAccess(rawValue: text) else {
                throw document.error(path, "\(path) is \(text.quoted()); it must be \(allowed).")
            }
            return access
        }

        private func hostNames(in document: ConfigurationDocument) throws(ConfigurationError) -> [String]? {
            guard let value = document.value(table: WebSettings.table, key: name) else { return nil }
            guard case .array(let items) = value else {
                throw document.error(path, "\(path) must be a list of host names in brackets, such as [\"board.home.arpa\"], not \(value.described).")
            }
            var names: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let name) = item, ListenAddress.isHostName(name) else {
                    throw document.error(path, "\(path) item \(index + 1) must be a host name or address in quotes (letters, digits, dots, hyphens), not \(item.described).")
                }
                names.append(name)
            }
            return names
        }
    }

    /// The `[web]` table of `document`, every key not given at its default. The file's other
    /// tables are the board's, which checks them itself (`tictactoe check-config`).
    public init(reading document: ConfigurationDocument) throws(ConfigurationError) {
        self.init()
        try document.checkTable(Self.table, keys: Key.allCases.map(\.name))
        for key in Key.allCases {
            try key.read(from: document, into: &self)
        }
    }

    /// The `[web]` table of the file at `path`, which must be readable and TOML throughout.
    public static func load(file path: String) throws(ConfigurationError) -> WebSettings {
        try WebSettings(reading: ConfigurationDocument.load(file: path))
    }
}
