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

/// `tictactoe-network`: the board on an MQTT broker (``LinkCommand``, what it does unless told
/// otherwise), and every board on it (``BoardsCommand``).
@main
struct NetworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tictactoe-network",
        abstract: "The tic-tac-toe board on an MQTT broker, and every board on it.",
        version: ProgramVersion.current,
        subcommands: [LinkCommand.self, BoardsCommand.self],
        defaultSubcommand: LinkCommand.self)
}

/// The board on an MQTT broker. Publishes the board's state, presence and events under
/// `tictactoe/<name>/`, and with `allow = "play"` takes commands from there; reaches the board
/// only through the board's socket (docs/NETWORK.md).
struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Put the tic-tac-toe board on an MQTT broker: its state, presence and events, and commands if allowed.",
        discussion: """
            Reaches the board only through its socket (docs/API.md), as the web view does; the board \
            plays on whatever the network does. Settings not given here come from the configuration \
            file's [network] table (docs/NETWORK.md).
            """)

    @Option(help: ArgumentHelp("The board's socket.", valueName: "path"))
    var socket = BoardSocket.defaultPath

    @OptionGroup var access: BrokerOptions

    @Option(help: ArgumentHelp("The board's name on the broker (default: network.name, else the host name).", valueName: "name"))
    var name: String?

    @Option(help: "play: messages on tictactoe/<name>/commands may play; watch: the board is only published (default: network.allow).")
    var allow: NetworkAccess?

    @Option(help: ArgumentHelp("Where to keep the list of every board on the broker, for the web view's boards view; \"\" for nowhere.", valueName: "path"))
    var boardsFile = BoardsList.defaultPath

    func run() throws {
        var settings = try access.settings()
        if let name {
            guard BoardName.isValid(name) else { throw ValidationError("--name is \(name.quoted()); it must be \(BoardName.form).") }
            settings.name = name
        }
        if let allow { settings.allow = allow }
        guard !socket.isEmpty, socket.utf8.count < 108 else {
            throw ValidationError("--socket is \(socket.quoted()); it must be the path of the board's socket, under 108 bytes.")
        }
        let board = try boardName(settings)
        var options = NetworkService.Options(
            boardSocket: socket, board: board, playing: settings.allow == .play, broker: try BrokerOptions.client(settings, role: board))
        options.discovery = settings.discovery
        options.boardsFile = boardsFile.isEmpty ? nil : boardsFile
        options.log = { Say.line("tictactoe-network: " + $0) }
        let service: NetworkService
        do {
            service = try NetworkService(options: options)
        } catch {
            Say.error(error.description)
            throw ExitCode(70)
        }
        let shutdown = ShutdownSignal([SIGTERM, SIGINT])
        service.start()
        Say.line(
            "tictactoe-network: the board's socket \(socket), on the broker at \(settings.broker)\(settings.usesTLS ? " over TLS" : "") as tictactoe/\(board)/; messages may \(settings.allow == .play ? "play" : "only watch")")
        _ = shutdown.wait()
        Self.stop(service)
    }

    /// Stops `service` on a thread of its own, waiting a few seconds at most: a connection being
    /// made (a broker that drops the link's packets, a name that takes long to look up) blocks the
    /// broker's thread until the system gives up on it, minutes later, and a stop must not wait for
    /// that. The process ends, and that thread with it.
    private static func stop(_ service: NetworkService) {
        if stopWithin(seconds: 3, { service.stop() }) {
            Say.line("tictactoe-network: stopped")
        } else {
            Say.line("tictactoe-network: stopped without waiting for the broker's connection attempt")
        }
    }

    /// `network.name`, else the machine's host name when it can be one.
    private func boardName(_ settings: NetworkSettings) throws -> String {
        if !settings.name.isEmpty { return settings.name }
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased() : ""
        let short = String(host.prefix { $0 != "." })
        guard BoardName.isValid(short) else {
            Say.error("the host name \(host.quoted()) cannot be the board's name on the broker: set \(NetworkSettings.Key.name.path) (\(BoardName.form)).")
            throw ExitCode(78)
        }
        return short
    }
}

/// Runs `stop` on a thread of its own; whether it returned within `seconds`.
func stopWithin(seconds: Int, _ stop: @escaping @Sendable () -> Void) -> Bool {
    let stopped = DispatchSemaphore(value: 0)
    LoopThread.start(named: "stopping") {
        stop()
        stopped.signal()
    }
    return stopped.wait(timeout: .now() + .seconds(seconds)) == .success
}
