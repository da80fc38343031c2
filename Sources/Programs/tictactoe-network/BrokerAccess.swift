import ArgumentParser
import Basics
import ConfigurationFile
#if canImport(Glibc)
import Glibc
#endif
import NetworkLink

/// The broker and the configuration file, as both commands take them.
struct BrokerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The broker, HOST:PORT (default: network.broker).", valueName: "host:port"))
    var broker: String?

    @Option(help: ArgumentHelp("The configuration file, whose [network] table it reads (default: \(InstalledConfiguration.path) when it exists).", valueName: "file"))
    var config: String?

    /// The file's `[network]` table (the board checks its other tables itself), with `--broker`.
    func settings() throws -> NetworkSettings {
        var settings = NetworkSettings()
        if let file = config ?? InstalledConfiguration.pathIfPresent {
            do {
                settings = try NetworkSettings.load(file: file)
            } catch {
                Say.error(error.description)
                throw ExitCode(78)
            }
        }
        if let broker {
            guard let address = BrokerAddress(parsing: broker) else {
                throw ValidationError("--broker is \(broker.quoted()); it must be \(BrokerAddress.form).")
            }
            settings.broker = address
        }
        return settings
    }

    /// The client's options for `settings`: who it is, its password and TLS files, each read
    /// first so that a missing one is named. `role` begins its client id.
    static func client(_ settings: NetworkSettings, role: String) throws -> BrokerClient.Options {
        // A client id no one else can guess: the broker lets a client with the same id take the
        // session over, and anyone it lets in could otherwise throw the client off at will.
        let clientID = "tictactoe-\(role)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        var options = BrokerClient.Options(broker: settings.broker, clientID: clientID)
        if !settings.user.isEmpty { options.user = settings.user }
        if !settings.passwordFile.isEmpty { options.password = try password(settings.passwordFile) }
        if settings.usesTLS {
            options.caFile = try readable(settings.caFile, .caFile)
            if !settings.certificate.isEmpty {
                (options.certificate, options.certificateKey) = (try readable(settings.certificate, .certificate), try readable(settings.certificateKey, .certificateKey))
            }
        }
        return options
    }

    /// `path`, once it has been read whole (libmosquitto's own failure names no file).
    private static func readable(_ path: String, _ key: NetworkSettings.Key) throws -> String {
        do { _ = try TextFile.readBytes(path) } catch {
            Say.error("\(key.path) \(path.quoted()): \(error.reason). It must be a PEM file the link's user can read.")
            throw ExitCode(66)
        }
        return path
    }

    /// The first line of the password file (without a line end, Unix's or Windows'): never shown,
    /// never logged.
    private static func password(_ path: String) throws -> String {
        let text: String
        do { text = try TextFile.read(path) } catch {
            Say.error("\(NetworkSettings.Key.passwordFile.path) \(path.quoted()): \(error.reason). The file must be readable by the user the link runs as (mode 0600).")
            throw ExitCode(66)
        }
        // By bytes: to Swift, "\r\n" is one character, not a "\r" before a "\n".
        let bytes = Array(text.utf8)
        var first = bytes[..<(bytes.firstIndex(of: 0x0A) ?? bytes.count)]
        if first.last == 0x0D { first = first.dropLast() }
        let line = String(decoding: first, as: UTF8.self)
        guard !line.isEmpty, line.utf8.count <= 256 else {
            Say.error("\(NetworkSettings.Key.passwordFile.path) \(path.quoted()): its first line must be the password, 1–256 bytes.")
            throw ExitCode(78)
        }
        return line
    }
}

/// Lines on standard output and errors on standard error, whole.
enum Say {
    /// Whether it was written whole.
    @discardableResult
    static func line(_ line: String) -> Bool {
        TextFile.writeAll(STDOUT_FILENO, Array((line + "\n").utf8))
    }

    static func error(_ line: String) {
        _ = TextFile.writeAll(STDERR_FILENO, Array(("tictactoe-network: " + line + "\n").utf8))
    }
}
