import ArgumentParser
import Basics
import BoardProtocol
import ConfigurationFile
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import NetworkLink
import NetworkRules
// Links the constructor that holds closed standard streams on /dev/null: a closed standard
// error must not become the broker's socket and carry log lines to it.
import StandardStreams

extension NetworkAccess: ExpressibleByArgument {}

/// `tictactoe-network`: the board on an MQTT broker. Publishes the board's state, presence and
/// events under `tictactoe/<name>/`, and with `allow = "play"` takes commands from there;
/// reaches the board only through the board's socket (docs/NETWORK.md).
@main
struct NetworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tictactoe-network",
        abstract: "Put the tic-tac-toe board on an MQTT broker: its state, presence and events, and commands if allowed.",
        discussion: """
            Reaches the board only through its socket (docs/API.md), as the web view does; the board \
            plays on whatever the network does. Settings not given here come from the configuration \
            file's [network] table (docs/NETWORK.md).
            """,
        version: ProgramVersion.current)

    @Option(help: ArgumentHelp("The board's socket.", valueName: "path"))
    var socket = BoardSocket.defaultPath

    @Option(help: ArgumentHelp("The broker, HOST:PORT (default: network.broker).", valueName: "host:port"))
    var broker: String?

    @Option(help: ArgumentHelp("The board's name on the broker (default: network.name, else the host name).", valueName: "name"))
    var name: String?

    @Option(help: "play: messages on tictactoe/<name>/commands may play; watch: the board is only published (default: network.allow).")
    var allow: NetworkAccess?

    @Option(help: ArgumentHelp("The configuration file, whose [network] table it reads (default: \(InstalledConfiguration.path) when it exists).", valueName: "file"))
    var config: String?

    func run() throws {
        var settings = try loadSettings()
        if let broker {
            guard let address = BrokerAddress(parsing: broker) else {
                throw ValidationError("--broker is \(broker.quoted()); it must be \(BrokerAddress.form).")
            }
            settings.broker = address
        }
        if let name {
            guard BoardName.isValid(name) else { throw ValidationError("--name is \(name.quoted()); it must be \(BoardName.form).") }
            settings.name = name
        }
        if let allow { settings.allow = allow }
        guard !socket.isEmpty, socket.utf8.count < 108 else {
            throw ValidationError("--socket is \(socket.quoted()); it must be the path of the board's socket, under 108 bytes.")
        }
        let board = try boardName(settings)
        let options = try options(settings, board: board)
        let service: NetworkService
        do {
            service = try NetworkService(options: options)
        } catch {
            Self.printError(error.description)
            throw ExitCode(70)
        }
        let shutdown = ShutdownSignal([SIGTERM, SIGINT])
        service.start()
        Self.say(
            "tictactoe-network: the board's socket \(socket), on the broker at \(settings.broker)\(settings.usesTLS ? " over TLS" : "") as tictactoe/\(board)/; messages may \(settings.allow == .play ? "play" : "only watch")")
        _ = shutdown.wait()
        Self.stop(service)
    }

    /// Stops `service` on a thread of its own, waiting a few seconds at most: a connection being
    /// made (a broker that drops the link's packets, a name that takes long to look up) blocks the
    /// broker's thread until the system gives up on it, minutes later, and a stop must not wait for
    /// that. The process ends, and that thread with it.
    private static func stop(_ service: NetworkService) {
        let stopped = DispatchSemaphore(value: 0)
        LoopThread.start(named: "stopping") {
            service.stop()
            stopped.signal()
        }
        if stopped.wait(timeout: .now() + .seconds(3)) == .timedOut {
            say("tictactoe-network: stopped without waiting for the broker's connection attempt")
        } else {
            say("tictactoe-network: stopped")
        }
    }

    private func options(_ settings: NetworkSettings, board: String) throws -> NetworkService.Options {
        // A client id no one else can guess: the broker lets a client with the same id take the
        // session over, and anyone it lets in could otherwise throw the link off at will.
        let clientID = "tictactoe-\(board)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        var broker = BrokerClient.Options(broker: settings.broker, clientID: clientID)
        if !settings.user.isEmpty { broker.user = settings.user }
        if !settings.passwordFile.isEmpty { broker.password = try password(settings.passwordFile) }
        if settings.usesTLS {
            broker.caFile = try readable(settings.caFile, .caFile)
            if !settings.certificate.isEmpty {
                (broker.certificate, broker.certificateKey) = (try readable(settings.certificate, .certificate), try readable(settings.certificateKey, .certificateKey))
            }
        }
        var options = NetworkService.Options(boardSocket: socket, board: board, playing: settings.allow == .play, broker: broker)
        options.discovery = settings.discovery
        options.log = { Self.say("tictactoe-network: " + $0) }
        return options
    }

    /// `path`, once it has been read whole (libmosquitto's own failure names no file).
    private func readable(_ path: String, _ key: NetworkSettings.Key) throws -> String {
        do { _ = try TextFile.readBytes(path) } catch {
            Self.printError("\(key.path) \(path.quoted()): \(error.reason). It must be a PEM file the link's user can read.")
            throw ExitCode(66)
        }
        return path
    }

    /// The first line of the password file (without a line end, Unix's or Windows'): never shown,
    /// never logged.
    private func password(_ path: String) throws -> String {
        let text: String
        do { text = try TextFile.read(path) } catch {
            Self.printError("\(NetworkSettings.Key.passwordFile.path) \(path.quoted()): \(error.reason). The file must be readable by the user the link runs as (mode 0600).")
            throw ExitCode(66)
        }
        // By bytes: to Swift, "\r\n" is one character, not a "\r" before a "\n".
        let bytes = Array(text.utf8)
        var first = bytes[..<(bytes.firstIndex(of: 0x0A) ?? bytes.count)]
        if first.last == 0x0D { first = first.dropLast() }
        let line = String(decoding: first, as: UTF8.self)
        guard !line.isEmpty, line.utf8.count <= 256 else {
            Self.printError("\(NetworkSettings.Key.passwordFile.path) \(path.quoted()): its first line must be the password, 1–256 bytes.")
            throw ExitCode(78)
        }
        return line
    }

    /// `network.name`, else the machine's host name when it can be one.
    private func boardName(_ settings: NetworkSettings) throws -> String {
        if !settings.name.isEmpty { return settings.name }
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased() : ""
        let short = String(host.prefix { $0 != "." })
        guard BoardName.isValid(short) else {
            Self.printError("the host name \(host.quoted()) cannot be the board's name on the broker: set \(NetworkSettings.Key.name.path) (\(BoardName.form)).")
            throw ExitCode(78)
        }
        return short
    }

    /// The file's `[network]` table; the board checks its other tables itself.
    private func loadSettings() throws -> NetworkSettings {
        guard let file = config ?? InstalledConfiguration.pathIfPresent else { return NetworkSettings() }
        do {
            return try NetworkSettings.load(file: file)
        } catch {
            Self.printError(error.description)
            throw ExitCode(78)
        }
    }

    static func say(_ line: String) {
        _ = TextFile.writeAll(STDOUT_FILENO, Array((line + "\n").utf8))
    }

    static func printError(_ line: String) {
        _ = TextFile.writeAll(STDERR_FILENO, Array(("tictactoe-network: " + line + "\n").utf8))
    }
}
