import Basics
import BoardProtocol
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import ShareCode
import WebRules

/// The web view: the page and its WebSocket on the network, the board only through its socket.
///
/// The page's files are read and the port listened on when it is made; ``start()`` serves them
/// on the ``WebServer``'s one thread, with the link to the board, until ``stop()``.
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
        /// The network link's list of every board on the broker (``BoardsList``), for the boards
        /// view; `nil`: the view says this web view shows none.
        public var boardsFile: String?
        public var limits = WebServer.Limits()
        /// The clock of the server's time-outs, the pages' allowances and the link's retries.
        public var now: @Sendable () -> MonotonicInstant = MonotonicInstant.now
        /// How often the link tries to reach a board that is away.
        public var retry: Duration = .seconds(1)
        /// Told of what happens at the server (tests wait on it).
        public var events: @Sendable (WebServer.Event) -> Void = { _ in }

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

        public var description: String {
            switch self {
            case .page(let missing): missing.description
            case .listen(let failure): failure.description
            }
        }
    }

    public let options: Options
    /// The port the web view listens on.
    public let port: UInt16
    public let server: WebServer

    /// Reads the page and listens; nothing is served until ``start()``.
    public init(options: Options) throws(Failure) {
        self.options = options
        let files: PageFiles
        do { files = try PageFiles(folder: options.page) } catch { throw .page(error) }
        let listener: Int32
        do { listener = try TCPListener.listen(host: options.host, port: options.port) } catch { throw .listen(error) }
        port = TCPListener.port(of: listener) ?? options.port
        let routes = PageRoutes(
            files: files, policy: HostPolicy(machineName: Machine.name, extraHosts: options.hosts), addresses: MachineAddresses().current)
        server = WebServer(
            listeners: [listener], routes: routes, board: BoardLink(path: options.boardSocket, retry: options.retry),
            boards: BoardsFeed(path: options.boardsFile), playing: options.playing,
            limits: options.limits, now: options.now, events: options.events)
    }

    /// Pages open now.
    public var pageCount: Int { server.census.pages }

    /// Serves on the server's thread until ``stop()``.
    public func start() {
        server.start()
    }

    /// Closes every connection and returns once the server's thread has ended. At most once.
    public func stop() {
        server.stop()
    }
}

/// The machine's addresses, read again at most once a second: every request's `Host` is checked
/// against them, and reading them (`getifaddrs`, over netlink) on each was most of a cheap
/// request's cost. An address given to the machine is answered to within a second.
final class MachineAddresses: Sendable {
    private let known = Locked<(addresses: Set<String>, read: MonotonicInstant?)>(([], nil))

    func current() -> Set<String> {
        let now = MonotonicInstant.now()
        return known.withLock { known in
            if let read = known.read, now - read < .seconds(1) { return known.addresses }
            known = (Machine.addresses, now)
            return known.addresses
        }
    }
}
