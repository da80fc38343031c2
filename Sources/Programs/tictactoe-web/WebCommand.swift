import ArgumentParser
import Basics
import BoardProtocol
import ConfigurationFile
#if canImport(Glibc)
import Glibc
#endif
import ShareCode
// Links the constructor that holds closed standard streams on /dev/null: a closed standard
// error must not become a client's socket and carry log lines to it.
import StandardStreams
import WebService

extension WebAccess: ExpressibleByArgument {}

/// `tictactoe-web`: the board in a browser. Serves the page and its WebSocket on the local
/// network and reaches the board only through the board's socket (docs/WEB.md).
@main
struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tictactoe-web",
        abstract: "Serve the tic-tac-toe board's page on the local network: watch and play from a phone.",
        discussion: """
            The page shows the board as its LEDs do, with X and O drawn, the score, the opponent and \
            the last games; it plays through the board's own socket (docs/API.md), never the pins. \
            Settings not given here come from the configuration file's [web] table.
            """,
        version: ProgramVersion.current)

    @Option(help: ArgumentHelp("The board's socket.", valueName: "path"))
    var socket = BoardSocket.defaultPath

    @Option(help: ArgumentHelp("Where to listen, ADDRESS:PORT: *:8080 is every interface (default: web.listen).", valueName: "address:port"))
    var listen: String?

    @Option(help: "play: pages may press cells and start games; watch: they only show the board (default: web.allow).")
    var allow: WebAccess?

    @Option(help: ArgumentHelp("The configuration file, whose [web] table it reads (default: \(InstalledConfiguration.path) when it exists).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The folder holding the page's files.", valueName: "folder"))
    var page = "/usr/share/tictactoe-gpio/web"

    @Option(help: ArgumentHelp("The network link's list of every board on the broker, for the page's boards view; \"\" for none.", valueName: "path"))
    var boardsFile = BoardsList.defaultPath

    func run() throws {
        var web = try loadSettings()
        if let listen {
            guard let address = ListenAddress(parsing: listen) else {
                throw ValidationError("--listen is \(listen.quoted()); it must be \(ListenAddress.form).")
            }
            web.listen = address
        }
        if let allow { web.allow = allow }
        let service: WebService
        do {
            var options = WebService.Options(
                boardSocket: socket, host: web.listen.host, port: web.listen.port, playing: web.allow == .play, hosts: web.hosts, page: page)
            options.boardsFile = boardsFile.isEmpty ? nil : boardsFile
            service = try WebService(options: options)
        } catch {
            Self.printError(error.description)
            switch error {
            case .page: throw ExitCode(66)
            case .listen(let failure): throw ExitCode(failure.errno == EACCES ? 77 : 69)
            }
        }
        // Caught before the line that says the page is up: a SIGTERM right after it stops the
        // web view. (A signal source of Dispatch's is installed on Dispatch's own time, after
        // the signal is set to be ignored: one that came between was lost, and the web view
        // never stopped.)
        let shutdown = ShutdownSignal([SIGTERM, SIGINT])
        service.start()
        announce(ListenAddress(host: web.listen.host, port: service.port), allow: web.allow)
        // The main thread waits for the signal; the server's thread does all the serving.
        _ = shutdown.wait()
        service.stop()
        Self.say("tictactoe-web: stopped")
    }

    /// The file's `[web]` table. The file must be TOML throughout, but its other tables are the
    /// board's, which checks them itself: the web view does not refuse a wiring it never uses.
    private func loadSettings() throws -> WebSettings {
        guard let file = config ?? InstalledConfiguration.pathIfPresent else { return WebSettings() }
        do {
            return try WebSettings.load(file: file)
        } catch {
            Self.printError(error.description)
            throw ExitCode(78)
        }
    }

    /// The line that says the page is up and where: every address a phone opens it by, the first
    /// the one to share.
    private func announce(_ listening: ListenAddress, allow: WebAccess) {
        let urls = PageAddress.urls(listenHost: listening.host, port: listening.port, machineName: Machine.name, machineAddresses: Machine.addresses)
        let others = urls.dropFirst().isEmpty ? "" : "or \(urls.dropFirst().joined(separator: ", ")); "
        Self.say("tictactoe-web: the board's page is at \(urls[0]) (\(others)listening on \(listening); the board's socket \(socket); pages may \(allow == .play ? "play" : "only watch"))")
        Self.showCode(of: urls[0])
    }

    /// The address's QR code, for a person at a terminal only: the journal keeps the address in
    /// the one line above (docs/WEB.md, "Opening the page on a phone").
    static func showCode(of url: String) {
        guard isatty(STDOUT_FILENO) == 1, let code = try? QRCode(encoding: url) else { return }
        say(code.terminalLines(colours: true).joined(separator: "\n"))
    }

    static func say(_ line: String) {
        _ = TextFile.writeAll(STDOUT_FILENO, Array((line + "\n").utf8))
    }

    static func printError(_ line: String) {
        _ = TextFile.writeAll(STDERR_FILENO, Array(("tictactoe-web: " + line + "\n").utf8))
    }
}
