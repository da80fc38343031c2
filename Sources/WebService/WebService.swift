import Basics
import BoardProtocol
import FlyingSocks
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import ShareCode
import WebView

/// The web view: the page and its WebSocket on the network, the board only through its socket.
///
/// Its parts, each on its own: the ``Gate`` (the listening TCP sockets, the limits), the HTTP
/// server (``PageServer``) on a Unix socket in a private folder only the gate reaches, and the
/// ``BoardLink`` with its ``PageHub``. ``run()`` starts them in that order from the board
/// inwards (the link, the server, the gate) and ends when the task running it is cancelled or
/// ``stop()`` is called; they stop in the reverse order.
///
/// The server's tasks run on Swift's shared pool at the priority of the task that calls
/// ``run()``.
public final class WebService: Sendable {
    public struct Options: Sendable {
        /// The board's socket.
        public var boardSocket: String
        /// `*` or an address, and a port (0: any free one; ``port`` says which).
        public var host: String
        public var port: UInt16
        /// Whether pages may change the game (`web.allow = "play"`), or only watch.
        public var playing: Bool
        /// Names the board is reached by, beyond its own (`web.hosts`).
        public var hosts: [String]
        /// The folder holding the page's files.
        public var page: String
        public var limits = Gate.Limits()
        /// The clock of the gate's time-outs and the pages' allowances.
        public var now: @Sendable () -> MonotonicInstant = MonotonicInstant.now
        /// How often the link tries to reach a board that is away.
        public var retry: Duration = .seconds(1)
        /// Told of what happens at the gate (tests wait on it).
        public var gateEvents: @Sendable (Gate.Event) -> Void = { _ in }

        public init(boardSocket: String, host: String, port: UInt16, playing: Bool, hosts: [String], page: String) {
            self.boardSocket = boardSocket
            self.host = host
            self.port = port
            self.playing = playing
            self.hosts = hosts
            self.page = page
        }
    }

    /// Why the web view cannot start.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case page(PageFiles.Missing)
        case listen(TCPListener.Failure)
        case privateFolder(String)

        public var description: String {
            switch self {
            case .page(let missing): missing.description
            case .listen(let failure): failure.description
            case .privateFolder(let reason): "no private folder for the HTTP server's socket: \(reason)"
            }
        }
    }

    public let options: Options
    /// The port the web view listens on.
    public let port: UInt16
    public let gate: Gate
    private let link: BoardLink
    private let hub: PageHub
    private let server: PageServer
    private let folder: String
    private let (stopRequests, stopRequester) = AsyncStream<Void>.makeStream()

    /// Reads the page, listens, and prepares the parts; nothing runs until ``run()``.
    public init(options: Options) throws(Failure) {
        self.options = options
        let files: PageFiles
        do { files = try PageFiles(folder: options.page) } catch { throw .page(error) }
        let listener: Int32
        do { listener = try TCPListener.listen(host: options.host, port: options.port) } catch { throw .listen(error) }
        port = TCPListener.port(of: listener) ?? options.port
        do {
            folder = try TextFile.makeTemporaryDirectory(prefix: "tictactoe-web")
        } catch {
            close(listener)
            throw .privateFolder(error.reason)
        }
        let socket = Self.serverSocket(in: folder)
        link = BoardLink(path: options.boardSocket, retry: options.retry)
        let link = link
        hub = PageHub(playing: options.playing) { link.send($0) }
        let routes = PageRoutes(
            files: files, policy: HostPolicy(machineName: Machine.name, extraHosts: options.hosts), addresses: { Machine.addresses })
        server = PageServer(path: socket, routes: routes, sockets: PageSocket(hub: hub, now: options.now))
        gate = Gate(listeners: [listener], upstream: socket, limits: options.limits, now: options.now, events: options.gateEvents)
    }

    /// The page server's socket, in the private folder only the gate reaches.
    private static func serverSocket(in folder: String) -> String { folder + "/http.sock" }

    /// Pages open now.
    public var pageCount: Int { hub.pageCount }

    /// Runs until the task is cancelled or ``stop()`` is called.
    public func run() async throws {
        link.start(reporting: hub)
        defer {
            gate.stop()
            link.stop()
            unlink(Self.serverSocket(in: folder))
            rmdir(folder)
        }
        let listener = try server.listen()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [server] in try await server.run(on: listener) }
            group.addTask { [stopRequests] in for await _ in stopRequests {} }
            gate.start()
            // The server failed, or stop() was called (or this task cancelled).
            try await group.next()
            gate.stop()
            group.cancelAll()
        }
    }

    /// Ends ``run()``: the gate closes its connections, then the server and the link stop.
    public func stop() {
        stopRequester.finish()
    }
}
