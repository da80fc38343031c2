import Basics
import BoardProtocol
import Synchronization
import WebView
#if canImport(Glibc)
import Glibc
#endif

/// The web view's front door: accepts the browsers' TCP connections and relays each to the HTTP
/// server (``PageServer``, on a private Unix socket), holding every connection to limits the server
/// itself does not keep: how many connections, and from one address, how large and how slow a
/// request head, no request bodies, how large a WebSocket message, how long a client may stay
/// silent (``Limits``).
///
/// ## Contract
/// - **Nothing unchecked reaches the server.** Client bytes pass only once ``ClientTraffic``
///   has read and checked them: a request head whole and read strictly, a frame's header whole.
///   The server never reads a byte the gate did not understand, so it cannot read a request
///   differently. A refused head is answered (`400`, `413` or `431`, saying why) once the server
///   has answered the requests before it, and the connection closed; a refused frame closes it at
///   once. The server's bytes go back as they are (``ServerTraffic`` only reads where its
///   responses end, to know when a connection becomes a WebSocket and when it is answered).
/// - **Half-closed clients are answered.** A client that shuts its sending side after its
///   requests gets their responses before the connection closes; on a WebSocket the half-close
///   is passed on to the server once it has every frame, and what it answers still reaches the
///   client.
/// - **Bounded.** At most ``Limits/connections`` connections, and at most
///   ``Limits/perAddress`` from one address, so that one client cannot fill the slots: the next is answered `503` and closed. Each connection holds
///   at most ``Limits/buffer`` bytes each way plus one request head being read
///   (``ClientTraffic/Limits/head``), and its socket's send buffer in the kernel is as large; a
///   side that does not read stops the other side being read.
/// - **Timed by the clock it is given.** A head must be whole within ``Limits/head``, a
///   client that sends nothing for ``Limits/idle`` is closed, and so is one that takes nothing
///   of what waits for it for ``Limits/stalled``. The gate reads `now` whenever it
///   wakes; a test with virtual time advances it and calls ``wake()``.
/// - Its own thread (poll), started by ``start()``; ``stop()`` closes every connection and the
///   listening sockets and returns once the thread has ended.
public final class Gate: @unchecked Sendable {
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
        /// sockets whatever its page is doing, so one that stops is gone, or means harm (it
        /// would keep the server's writer for it waiting, and what the server holds for it).
        public var stalled: Duration = .seconds(20)
        /// Bytes held for a connection in each direction.
        public var buffer = 65_536
        public var traffic = ClientTraffic.Limits()

        public init() {}
    }

    /// What the gate has done, for tests and `status`.
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
    }

    /// What happened at the gate, as it happens (on the gate's thread): for tests, which wait
    /// on these rather than on time.
    public enum Event: Sendable, Hashable {
        case accepted
        /// A request head has begun: its time-out runs.
        case headBegan
        case turnedAway
        case turnedAwayFromAddress
        case refused(ClientTraffic.Refusal)
        /// A client has a whole buffer waiting for it: the gate reads no more of the server for
        /// it until it takes some.
        case clientBehind
        case timedOut
        /// A connection ended (any way but being turned away).
        case closed
    }

    private final class Connection {
        let client: Int32
        let server: Int32
        /// The client's address, as the per-address limit counts it.
        let address: String
        var traffic: ClientTraffic
        var responses = ServerTraffic()
        var toServer: [UInt8] = []
        var toClient: [UInt8] = []
        /// Client bytes read after a head asking for an upgrade, scanned once the server answers.
        var held: [UInt8] = []
        var lastHeard: MonotonicInstant
        /// Since when bytes have waited for the client without it taking any.
        var stalledSince: MonotonicInstant?
        var headBegan: MonotonicInstant?
        /// The server has closed its side, or has nothing more to send: the connection ends once
        /// the client has what is left.
        var serverDone = false
        /// Nothing more is read from the client (it shut its side, or a head was refused): the
        /// connection ends once the server has answered every request passed, and the client
        /// has those answers and then `farewell`.
        var clientDone = false
        var farewell: [UInt8] = []
        /// The server has been told the client is done (a WebSocket's half-close passed on).
        var serverToldDone = false

        init(client: Int32, server: Int32, address: String, traffic: ClientTraffic, now: MonotonicInstant) {
            self.client = client
            self.server = server
            self.address = address
            self.traffic = traffic
            lastHeard = now
        }
    }

    private let listeners: [Int32]
    private let upstream: String
    private let limits: Limits
    private let now: @Sendable () -> MonotonicInstant
    private let events: @Sendable (Event) -> Void
    private let loop = PollLoop(named: "web-gate")
    private let counts = Mutex(Census())
    private var connections: [Connection] = []
    private var buffer = [UInt8](repeating: 0, count: 16_384)

    /// - Parameters:
    ///   - listeners: listening TCP sockets (``TCPListener/listen(host:port:backlog:)``); the gate closes them when it stops.
    ///   - upstream: the path of the HTTP server's Unix socket.
    ///   - events: told of each ``Event``, on the gate's thread.
    public init(
        listeners: [Int32], upstream: String, limits: Limits = Limits(),
        now: @escaping @Sendable () -> MonotonicInstant = MonotonicInstant.now,
        events: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.listeners = listeners
        self.upstream = upstream
        self.limits = limits
        self.now = now
        self.events = events
        for fd in listeners { Self.makeNonBlocking(fd) }
    }

    public var census: Census { counts.withLock { $0 } }

    public func start() {
        loop.start { [self] loop in serve(loop) }
    }

    /// Makes the gate read the clock again (a test's virtual time moved).
    /// Does nothing once the gate is stopped.
    public func wake() {
        loop.wake()
    }

    /// Closes every connection and the listening sockets, and returns once the gate's thread
    /// has ended. Also when never started; at most once.
    public func stop() {
        if loop.stop() == .neverStarted {
            for listener in listeners { close(listener) }
        }
    }

    // MARK: The gate's thread

    private func serve(_ loop: PollLoop) {
        while true {
            // The connections this turn polls; those accepted during it wait for the next.
            let polledConnections = connections
            let asked = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + polledConnections.flatMap(pollRequests(for:))
            guard let polled = loop.wait(for: asked, timeout: pollTimeout()) else { break }
            let base = listeners.count
            var ended: [Connection] = []
            for (index, connection) in polledConnections.enumerated() {
                let clientEvents = Int32(polled[base + 2 * index].revents)
                let serverEvents = Int32(polled[base + 2 * index + 1].revents)
                if !serve(connection, clientEvents: clientEvents, serverEvents: serverEvents) { ended.append(connection) }
            }
            let moment = now()
            for connection in polledConnections where !ended.contains(where: { $0 === connection }) && expired(connection, at: moment) {
                counts.withLock { $0.timedOut += 1 }
                events(.timedOut)
                ended.append(connection)
            }
            for connection in ended { end(connection) }
            for (index, listener) in listeners.enumerated() where polled[index].revents != 0 {
                accept(from: listener)
            }
        }
        for connection in connections { end(connection) }
        for listener in listeners { close(listener) }
    }

    /// What to wait for on a connection's two sockets, client first: reading while its buffer
    /// has room (and, from the client, while no upgrade is pending), writing while bytes wait.
    private func pollRequests(for connection: Connection) -> [pollfd] {
        var clientEvents: Int32 = 0
        if !connection.clientDone && !connection.serverDone && connection.toServer.count < limits.buffer
            && !connection.traffic.isWaitingForUpgrade
        {
            clientEvents |= Int32(POLLIN)
        }
        if !connection.toClient.isEmpty { clientEvents |= Int32(POLLOUT) }
        var serverEvents: Int32 = 0
        if !connection.serverDone && connection.toClient.count < limits.buffer { serverEvents |= Int32(POLLIN) }
        if !connection.toServer.isEmpty { serverEvents |= Int32(POLLOUT) }
        return [
            pollfd(fd: connection.client, events: Int16(clientEvents), revents: 0),
            pollfd(fd: connection.serverDone ? -1 : connection.server, events: Int16(serverEvents), revents: 0),
        ]
    }

    /// Moves what can be moved for one connection; `false` when it has ended.
    private func serve(_ connection: Connection, clientEvents: Int32, serverEvents: Int32) -> Bool {
        if serverEvents & Int32(POLLOUT) != 0, !flush(&connection.toServer, to: connection.server) { return false }
        let waiting = connection.toClient.count
        if clientEvents & Int32(POLLOUT) != 0, !flush(&connection.toClient, to: connection.client) { return false }
        let tookSome = connection.toClient.count < waiting
        defer {
            if connection.toClient.isEmpty {
                connection.stalledSince = nil
            } else if tookSome || connection.stalledSince == nil {
                connection.stalledSince = now()
            }
        }
        if connection.serverDone && connection.toClient.isEmpty { return false }
        if serverEvents & Int32(POLLIN | POLLHUP | POLLERR) != 0, !readFromServer(connection) { return false }
        if connection.clientDone {
            // Gone altogether (a reset, or both sides shut): nobody to answer.
            if clientEvents & Int32(POLLHUP | POLLERR) != 0 { return false }
        } else if clientEvents & Int32(POLLIN | POLLHUP | POLLERR) != 0, !readFromClient(connection) {
            return false
        }
        return passOnHalfClose(connection)
    }

    /// Reads what the server sent: responses watched for the upgrade's answer, bytes queued for
    /// the client, held client bytes let through once no upgrade is pending. `false`: it ended.
    private func readFromServer(_ connection: Connection) -> Bool {
        let count = read(connection.server, &buffer, buffer.count)
        guard count > 0 else {
            guard count == 0 || (errno != EAGAIN && errno != EINTR) else { return true }
            connection.serverDone = true
            return !connection.toClient.isEmpty
        }
        let bytes = buffer[..<count]
        for status in connection.responses.scan(bytes) {
            guard connection.traffic.isWaitingForUpgrade && connection.responses.responses == connection.traffic.requests else {
                // A switch the gate did not see asked for: the two read the requests
                // differently, which the strict reading is there to prevent.
                if status == 101 { return false }
                continue
            }
            if status == 101 { connection.traffic.upgraded() } else { connection.traffic.notUpgraded() }
        }
        let wasBehind = connection.toClient.count >= limits.buffer
        connection.toClient.append(contentsOf: bytes)
        if !wasBehind && connection.toClient.count >= limits.buffer { events(.clientBehind) }
        if !connection.traffic.isWaitingForUpgrade && !connection.held.isEmpty {
            let held = connection.held
            connection.held = []
            return take(held, from: connection)
        }
        return true
    }

    /// Reads what the client sent, or that it shut its side. `false`: it ended.
    private func readFromClient(_ connection: Connection) -> Bool {
        let count = read(connection.client, &buffer, buffer.count)
        if count > 0 {
            connection.lastHeard = now()
            return take(Array(buffer[..<count]), from: connection)
        } else if count == 0 && !connection.traffic.isWebSocket && !connection.traffic.isWaitingForUpgrade {
            // Shut after its requests (a head begun and not ended is dropped: it never ends).
            connection.clientDone = true
            connection.headBegan = nil
        } else if count == 0 && connection.traffic.isWebSocket {
            // A page that has said all it will: the server is told so once it has every frame,
            // and the connection ends when it has answered them and closed.
            connection.clientDone = true
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            return false
        }
        return true
    }

    /// A client that shut its side: the server told once it has every frame, and the client
    /// given the farewell once every request is answered. `false`: it ended.
    private func passOnHalfClose(_ connection: Connection) -> Bool {
        if connection.clientDone && connection.traffic.isWebSocket && connection.toServer.isEmpty && !connection.serverToldDone {
            shutdown(connection.server, Int32(SHUT_WR))
            connection.serverToldDone = true
        }
        if connection.clientDone && !connection.serverDone && connection.responses.hasAnswered(connection.traffic.requests) {
            connection.toClient += connection.farewell
            connection.serverDone = true
            if connection.toClient.isEmpty { return false }
        }
        return true
    }

    /// Scans bytes the client sent and passes what may pass; `false` when the connection ends
    /// at once (a refused frame). A refused head is answered once the server has answered the
    /// requests before it.
    private func take(_ bytes: [UInt8], from connection: Connection) -> Bool {
        if connection.traffic.isWaitingForUpgrade {
            connection.held += bytes
            return true
        }
        let scanned = connection.traffic.scan(bytes)
        connection.toServer += scanned.passing
        connection.held = scanned.held
        if let error = scanned.refusal {
            counts.withLock { $0.refused += 1 }
            events(.refused(error))
            guard let (status, _) = error.response else { return false }
            connection.farewell = Self.lastResponse(status, saying: "The board's web view cannot take this request: \(error).")
            connection.clientDone = true
            connection.headBegan = nil
            return true
        }
        // The head time-out runs from a head's first byte; a head begun and ended in these
        // bytes was quick enough.
        if connection.traffic.isInsideHead {
            if connection.headBegan == nil {
                connection.headBegan = connection.lastHeard
                events(.headBegan)
            }
        } else {
            connection.headBegan = nil
        }
        return true
    }

    private func expired(_ connection: Connection, at moment: MonotonicInstant) -> Bool {
        if let began = connection.headBegan, moment - began >= limits.head { return true }
        if let stalled = connection.stalledSince, moment - stalled >= limits.stalled { return true }
        return moment - connection.lastHeard >= limits.idle
    }

    /// Milliseconds until the nearest deadline, at least 1 and at most a second; -1 with none.
    private func pollTimeout() -> Int32 {
        guard !connections.isEmpty else { return -1 }
        let moment = now()
        var nearest = Duration.seconds(1)
        for connection in connections {
            nearest = min(nearest, connection.lastHeard + limits.idle - moment)
            if let began = connection.headBegan { nearest = min(nearest, began + limits.head - moment) }
            if let stalled = connection.stalledSince { nearest = min(nearest, stalled + limits.stalled - moment) }
        }
        return Int32(max(1, min(1000, nearest.nanoseconds / 1_000_000 + 1)))
    }

    private func accept(from listener: Int32) {
        while true {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
            guard client >= 0 else { return }
            Self.makeNonBlocking(client)
            let address = Self.addressKey(peer)
            guard connections.count < limits.connections else {
                turnAway(client, saying: "The board has as many visitors as it can take: try later.", event: .turnedAway)
                continue
            }
            guard connections.count(where: { $0.address == address }) < limits.perAddress else {
                turnAway(client, saying: "Your device has as many connections open to the board as it may: close a page of it, or try later.", event: .turnedAwayFromAddress)
                continue
            }
            // The kernel's own buffer for the client, bounded too: left to itself it grows to
            // megabytes for a client that takes nothing, where the gate's limits cannot see.
            var sendBuffer = Int32(limits.buffer)
            setsockopt(client, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
            // The gate relays what the server wrote as soon as it has it: a response longer than
            // one relayed piece (16 KiB) went out in two, and Nagle's algorithm held the second
            // until the client acknowledged the first, which a client delays by 40 ms.
            var noDelay: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            guard let server = try? Self.connectUpstream(upstream) else {
                Self.closeGently(client)
                continue
            }
            connections.append(Connection(client: client, server: server, address: address, traffic: ClientTraffic(limits: limits.traffic), now: now()))
            counts.withLock {
                $0.accepted += 1
                $0.open = connections.count
            }
            events(.accepted)
        }
    }

    /// The gate's own answer, the last on its connection: a plain sentence, then the close.
    private static func lastResponse(_ status: Int, saying sentence: String) -> [UInt8] {
        PageRoutes.text(status, sentence).encoded(closing: true)
    }

    private func turnAway(_ client: Int32, saying text: String, event: Event) {
        // Counted before the answer is sent: whoever reads the answer finds it counted.
        counts.withLock {
            if event == .turnedAway { $0.turnedAway += 1 } else { $0.turnedAwayFromAddress += 1 }
        }
        events(event)
        let busy = Self.lastResponse(503, saying: text)
        _ = busy.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Self.closeGently(client)
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

    private func end(_ connection: Connection) {
        connections.removeAll { $0 === connection }
        close(connection.server)
        Self.closeGently(connection.client)
        counts.withLock { $0.open = connections.count }
        events(.closed)
    }

    /// Writes what it can; `false` when the other side is gone.
    private func flush(_ bytes: inout [UInt8], to fd: Int32) -> Bool {
        let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count > 0 {
            bytes.removeFirst(count)
            return true
        }
        return count < 0 && (errno == EAGAIN || errno == EINTR)
    }

    /// Closes a client's socket without resetting it over bytes it sent that nobody read (a
    /// reset would lose what was sent to it last): stop sending, drain a little, close.
    private static func closeGently(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var sink = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<4 where recv(fd, &sink, sink.count, Int32(MSG_DONTWAIT)) > 0 {}
        close(fd)
    }

    private static func connectUpstream(_ path: String) throws -> Int32 {
        let fd = try UnixSocket.connect(to: path)
        makeNonBlocking(fd)
        return fd
    }

    private static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}
