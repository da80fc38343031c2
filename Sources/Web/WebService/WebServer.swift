import Basics
import BoardProtocol
import Synchronization
import WebRules
#if canImport(Glibc)
import Glibc
#endif

/// The web view's one server, on one thread: it accepts the browsers' TCP connections, reads
/// each request head and WebSocket frame once, strictly (``ClientTraffic``), answers the page's
/// files and its WebSocket (``PageRoutes``, ``PageHub``), and carries the pages' commands to the
/// board and the board's lines to the pages (``BoardLink``), and the boards on the broker to the
/// pages that show them (``BoardsFeed``), all on one ``PollLoop``.
///
/// ## Contract
/// - **One reading.** A head is answered only once it is whole and read strictly; a refused
///   head is answered (`400`, `413` or `431`, saying why) after the requests before it, and the
///   connection closed; a refused frame closes it at once.
/// - **In order.** A connection's requests are answered in the order sent; after a head asking
///   for a WebSocket nothing more is read as a head until it is answered.
/// - **Half-closed clients are answered.** A client that shuts its sending side after its
///   requests gets their responses before the connection closes; a page that shuts it gets the
///   answers to its messages, then the close.
/// - **Bounded.** At most ``Limits/connections`` connections, and at most
///   ``Limits/perAddress`` from one address, so that one client cannot fill the slots: the next
///   is answered `503` and closed. A connection holds one request head or frame being read
///   (``ClientTraffic/Limits``) and what waits for the client: nothing more is read from a
///   client while ``Limits/buffer`` bytes wait for it (so at most that and one response, the
///   largest being the page's largest file or a boards list), and a page's frames wait in the
///   ``PageHub`` (at most ``PageHub/pageBacklogBytes``, and one boards list) until there is room. Its socket's send buffer in the kernel is
///   ``Limits/buffer`` too.
/// - **Timed by the clock it is given.** A head must be whole within ``Limits/head``, a client
///   that sends nothing for ``Limits/idle`` is closed, and so is one that takes nothing of what
///   waits for it for ``Limits/stalled``; the link to the board tries again on the same clock.
///   The server reads `now` whenever it wakes; a test with virtual time advances it and calls
///   ``wake()``.
/// - Its own thread (``PollLoop``), started by ``start()``; ``stop()`` closes every connection,
///   the listening sockets and the board's, and returns once the thread has ended. Everything
///   else of the server is confined to that thread; only ``census`` is read from others.
public final class WebServer: @unchecked Sendable {
    public struct Limits: Sendable, Hashable {
        public var connections = 64
        /// Connections from one address: a phone's page needs one WebSocket and at most six
        /// requests at once (a browser's own limit per server).
        public var perAddress = 16
        /// From a request head's first byte to its last.
        public var head: Duration = .seconds(5)
        /// Silence from a client, between requests or on a WebSocket (the page pings every 20 s).
        public var idle: Duration = .seconds(60)
        /// A client that takes none of what waits for it: a browser's network side reads its
        /// sockets whatever its page is doing, so one that stops is gone, or means harm.
        public var stalled: Duration = .seconds(20)
        /// Bytes waiting for a client above which nothing more is read from it.
        public var buffer = 65_536
        public var traffic = ClientTraffic.Limits()

        public init() {}
    }

    /// What the server has done, for tests and `status`.
    public struct Census: Sendable, Hashable {
        public var open = 0
        public var accepted = 0
        /// Turned away at the door: over the connection limit.
        public var turnedAway = 0
        /// Turned away at the door: over the limit for their address.
        public var turnedAwayFromAddress = 0
        /// Closed for breaking a rule of ``ClientTraffic``.
        public var refused = 0
        /// Closed for a slow head, a silent client or one that takes nothing.
        public var timedOut = 0
        /// Pages being sent the board.
        public var pages = 0
        /// The most bytes held for one client at once (what waited for it, sent or not).
        public var mostHeld = 0
    }

    /// What happened, as it happens (on the server's thread): for tests, which wait on these
    /// rather than on time.
    public enum Event: Sendable, Hashable {
        case accepted
        /// A request head has begun: its time-out runs.
        case headBegan
        case turnedAway
        case turnedAwayFromAddress
        case refused(ClientTraffic.Refusal)
        /// A client has a whole buffer waiting for it: nothing more is read from it until it
        /// takes some.
        case clientBehind
        case timedOut
        /// A connection ended (any way but being turned away).
        case closed
    }

    let limits: Limits
    let routes: PageRoutes
    let now: @Sendable () -> MonotonicInstant
    let events: @Sendable (Event) -> Void
    private let listeners: [Int32]
    private let loop = PollLoop(named: "web")
    private let counts = Locked(Census())
    private let link: BoardLink
    private let boards: BoardsFeed
    let hub: PageHub
    private var connections: [WebConnection] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)

    /// - Parameters:
    ///   - listeners: listening TCP sockets (``TCPListener/listen(host:port:backlog:)``); the
    ///     server closes them when it stops.
    ///   - events: told of each ``Event``, on the server's thread.
    init(
        listeners: [Int32], routes: PageRoutes, board: BoardLink, boards: BoardsFeed, playing: Bool, limits: Limits,
        now: @escaping @Sendable () -> MonotonicInstant, events: @escaping @Sendable (Event) -> Void
    ) {
        self.listeners = listeners
        self.routes = routes
        self.limits = limits
        self.now = now
        self.events = events
        link = board
        self.boards = boards
        hub = PageHub(playing: playing) { [link] in link.send($0) }
        for fd in listeners { Socket.makeNonBlocking(fd) }
    }

    public var census: Census { counts.withLock { $0 } }

    func count(_ change: (inout Census) -> Void) { counts.withLock { change(&$0) } }

    public func start() {
        loop.start { [self] loop in serve(loop) }
    }

    /// Makes the server read the clock again (a test's virtual time moved).
    /// Does nothing once the server is stopped.
    public func wake() {
        loop.wake()
    }

    /// Closes every connection and the listening sockets, and returns once the server's thread
    /// has ended. Also when never started; at most once.
    public func stop() {
        if loop.stop() == .neverStarted {
            for listener in listeners { close(listener) }
        }
    }

    // MARK: The server's thread

    private func serve(_ loop: PollLoop) {
        tell(hub, link.connectIfDue(at: now()).map { [$0] } ?? [])
        while true {
            // The connections this turn polls; those accepted during it wait for the next.
            let polled = connections
            for connection in polled { connection.fill(from: hub) }
            let asked = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + [link.pollRequest] + polled.map(\.pollRequest)
            guard let answered = loop.wait(for: asked, timeout: pollTimeout()) else { break }
            let moment = now()
            tell(hub, link.serve(answered[listeners.count].revents, at: moment))
            tell(hub, link.connectIfDue(at: moment).map { [$0] } ?? [])
            if hub.isWatchingBoards, let list = boards.look(at: moment) { hub.boardsListed(list) }
            var ended: [WebConnection] = []
            for (index, connection) in polled.enumerated() {
                let revents = Int32(answered[listeners.count + 1 + index].revents)
                if !connection.serve(revents, on: self) {
                    ended.append(connection)
                } else if connection.hasExpired(at: moment) {
                    counts.withLock { $0.timedOut += 1 }
                    events(.timedOut)
                    ended.append(connection)
                }
            }
            for connection in ended { end(connection) }
            for (index, listener) in listeners.enumerated() where answered[index].revents != 0 {
                accept(from: listener)
            }
            let held = polled.map(\.held).max() ?? 0
            counts.withLock {
                $0.pages = hub.pageCount
                $0.mostHeld = max($0.mostHeld, held)
            }
        }
        for connection in connections { end(connection) }
        for listener in listeners { close(listener) }
        link.close()
    }

    /// A page opened the boards view (sent the list as it is now, looked at afresh) or closed it.
    func watchBoards(_ page: BoardRelay.PageID, _ watch: Bool) {
        if watch, let list = boards.look(at: now(), now: true) { hub.boardsListed(list) }
        hub.watchBoards(page, watch, latest: boards.latest)
    }

    /// Tells the pages what happened on the link to the board, in words for a page and a person.
    private func tell(_ hub: PageHub, _ events: [BoardLink.Event]) {
        for event in events {
            switch event {
            case .connected: hub.boardConnected()
            case .line(let bytes): hub.boardSent(String(decoding: bytes, as: UTF8.self))
            case .closed, .unreachable:
                if let (reason, text) = link.absence(after: event, client: "the web view") { hub.boardLost(reason, text) }
            }
        }
    }

    /// Milliseconds until the nearest deadline, at least 1 and at most a second; -1 with none.
    private func pollTimeout() -> Int32 {
        // Work read and not yet answered (a turn's budget ran out): the next turn at once.
        if connections.contains(where: \.hasReadyWork) { return 0 }
        let deadlines = connections.flatMap(\.deadlines) + [link.deadline, boards.deadline(watched: hub.isWatchingBoards)].compactMap { $0 }
        guard let nearest = deadlines.min() else { return -1 }
        let wait = min(.seconds(1), nearest - now())
        return Int32(max(1, wait.nanoseconds / 1_000_000 + 1))
    }

    /// Takes one waiting connection: one a turn, so that a connection is always accepted in a
    /// turn that read the clock after it was made (the turn that polled it ready), never in a
    /// turn that began before it and went on accepting.
    private func accept(from listener: Int32) {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
        }
        guard client >= 0 else { return }
        Socket.makeNonBlocking(client)
        let address = Self.addressKey(peer)
        guard connections.count < limits.connections else {
            turnAway(client, saying: "The board has as many visitors as it can take: try later.", event: .turnedAway)
            return
        }
        guard connections.count(where: { $0.address == address }) < limits.perAddress else {
            turnAway(client, saying: "Your device has as many connections open to the board as it may: close a page of it, or try later.", event: .turnedAwayFromAddress)
            return
        }
        // The kernel's own buffer for the client, bounded too: left to itself it grows to
        // megabytes for a client that takes nothing, where the server's limits cannot see.
        var sendBuffer = Int32(limits.buffer)
        setsockopt(client, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        // A page's frames are small writes: each goes out at once, not held by Nagle's
        // algorithm until the client acknowledges the one before (which it delays by 40 ms).
        var noDelay: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        connections.append(WebConnection(fd: client, address: address, limits: limits, now: now) { [events] in events(.clientBehind) })
        counts.withLock {
            $0.accepted += 1
            $0.open = connections.count
        }
        events(.accepted)
    }

    private func turnAway(_ client: Int32, saying text: String, event: Event) {
        // Counted before the answer is sent: whoever reads the answer finds it counted.
        counts.withLock {
            if event == .turnedAway { $0.turnedAway += 1 } else { $0.turnedAwayFromAddress += 1 }
        }
        events(event)
        _ = Socket.sendSome(client, PageRoutes.text(503, text).encoded(closing: true)[...])
        Socket.hangUp(client)
    }

    /// What the per-address limit counts as one client: an IPv4 address (also when it comes
    /// mapped into IPv6), or an IPv6 address. Not an IPv6 /64, though one device's temporary
    /// addresses share one: the only IPv6 visitors the unit lets in are link-local or on the
    /// home's one /64, so a /64 would be every IPv6 visitor in the house.
    static func addressKey(_ peer: sockaddr_storage) -> String {
        var peer = peer
        switch Int32(peer.ss_family) {
        case AF_INET:
            let v4 = withUnsafeBytes(of: &peer) { $0.load(as: sockaddr_in.self) }
            return withUnsafeBytes(of: v4.sin_addr) { $0.map(String.init).joined(separator: ".") }
        case AF_INET6:
            let v6 = withUnsafeBytes(of: &peer) { $0.load(as: sockaddr_in6.self) }
            let bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            return bytes.map { String($0, radix: 16) }.joined(separator: ":")
        default:
            return ""
        }
    }

    private func end(_ connection: WebConnection) {
        connections.removeAll { $0 === connection }
        if let page = connection.page { hub.leave(page) }
        Socket.hangUp(connection.fd)
        counts.withLock {
            $0.open = connections.count
            $0.pages = hub.pageCount
        }
        events(.closed)
    }
}
