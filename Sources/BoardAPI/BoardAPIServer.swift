import Basics
import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Presentation
import Reactive
#if canImport(Glibc)
import Glibc
#endif

/// Serves the board's API on a listening Unix socket: a hello and the view state to each
/// client on connecting, then one state message per change of what the board shows, and a
/// reply to each command (docs/API.md is the protocol).
///
/// ## Contract
/// - **Off the game loop.** Connections are accepted, read, parsed, encoded and written on a
///   thread of the server's own. The game loop only hands each new session state over
///   (``RemoteControl/observeStates(_:)``: a copy and, when the server is idle, one wake-up),
///   the same cost for no client as for 32. Commands run on the loop one at a time per client:
///   a client's next line is read only once its command is answered.
/// - **One message per change, in order.** Every client gets the states in the order the board
///   took them, each once; a state that shows the same as the last one sent is not sent. A
///   client that does not read falls behind by at most one state (the newest replaces one not
///   yet begun) and its memory is bounded (``Outbox``); the game never waits for it.
/// - **Bounded.** At most ``Limits/clients`` clients: the next one is sent a `bye` naming the
///   limit and closed. A line over 4 KiB, not UTF-8, not JSON, or not a command gets an `error`
///   naming the problem and the connection stays usable; after ``Limits/badLinesInARow`` bad
///   lines in a row it is closed with a `bye`. A client that disconnects mid-line changes
///   nothing; one that shuts its sending side after its lines gets their replies, then is closed.
/// - **Back-pressure, not loss.** A client's next line is read and answered only while its
///   ``Outbox`` has room (fewer than ``Outbox/byteLimit`` bytes and a few replies wait): a client
///   that sends faster than it reads is not read until it has read, and every reply it asked for
///   reaches it, in order. What a client can make the server hold is bounded in bytes: one read
///   (16 KiB) of lines, and its outbox.
/// - **No request stalls the others.** The answer to `history`, the one large answer, is encoded
///   once per change of the history and shared by every client that asks.
/// - ``stop()`` closes every connection and the listening socket and returns once the server's
///   thread has ended; the observation of the state ends on the game loop.
public final class BoardAPIServer: @unchecked Sendable {
    public struct Limits: Sendable, Hashable {
        public var clients = 32
        public var badLinesInARow = 16

        public init(clients: Int = 32, badLinesInARow: Int = 16) {
            self.clients = clients
            self.badLinesInARow = badLinesInARow
        }
    }

    /// What `status` reports besides the view state, read when asked.
    public struct Facts: Sendable {
        public var since: WallTime
        public var scanRate: Int
        public var chip: APIMessage.ChipName
        public var saves: @Sendable () -> SavesWritten

        public init(
            since: WallTime, scanRate: Int, chip: APIMessage.ChipName, saves: @escaping @Sendable () -> SavesWritten = { SavesWritten() }
        ) {
            self.since = since
            self.scanRate = scanRate
            self.chip = chip
            self.saves = saves
        }
    }

    /// The saves of the game written to disk (each flushed, the directory too) since the board
    /// started: how many, and when the last one was.
    public struct SavesWritten: Sendable, Hashable {
        public var count = 0
        public var last: WallTime?

        public init(count: Int = 0, last: WallTime? = nil) {
            self.count = count
            self.last = last
        }
    }

    private enum Delivery {
        case state(SessionState)
        case reply(client: Int, APIMessage)
    }

    private struct Mailbox {
        var deliveries: [Delivery] = []
        var stopping = false
        /// A wake-up is on its way: the server thread has not yet taken the deliveries.
        var woken = false
    }

    /// The server's own thread (not the game loop, `loop`).
    private let poller = PollLoop(named: "board-api")

    private let listener: Int32
    private let control: RemoteControl
    private let loop: any Scheduler
    private let program: String
    private let facts: Facts
    private let history: GameHistory?
    private let limits: Limits
    private let mailbox = Protected(Mailbox())
    private let observation = SerialDisposable()
    private let running = Protected(false)

    // Confined to the server's thread.
    private var clients: [Int: Client] = [:]
    private var nextClient = 0
    private var latest: (view: ViewState, line: [UInt8])?
    /// The last `history` answer, with the games it encodes.
    private var historyAnswer: (games: [PlayedGame], line: [UInt8])?
    private let encoder: JSONEncoder

    /// - Parameters:
    ///   - listener: a listening Unix stream socket (``UnixSocket/listen(at:backlog:)``, or the
    ///     one systemd passed); the server owns it from now on and closes it in ``stop()``.
    ///   - program: "tictactoe 0.4.0", for the hello.
    ///   - history: the finished games, for `history`; `nil` answers with none.
    public init(
        listener: Int32, control: RemoteControl, loop: any Scheduler, program: String, facts: Facts, history: GameHistory?,
        limits: Limits = Limits()
    ) {
        self.listener = listener
        self.control = control
        self.loop = loop
        self.program = program
        self.facts = facts
        self.history = history
        self.limits = limits
        Self.makeNonBlocking(listener)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    /// Starts serving: the state is observed on the game loop and the server's thread starts.
    public func start() {
        running.withValue { $0 = true }
        loop.runAndWait { [self] in
            control.start()
            observation.inner = control.observeStates { [weak self] state in self?.post(.state(state)) }
        }
        poller.start { [self] poller in serve(poller) }
    }

    /// Stops serving: the observation ends on the game loop, every connection is closed.
    public func stop() {
        guard running.withValue({ running -> Bool in defer { running = false }; return running }) else { return }
        loop.runAndWait { [self] in
            observation.dispose()
            control.stop()
        }
        mailbox.withValue { $0.stopping = true }
        poller.stop()
        for client in clients.values { Self.hangUp(client) }
        clients.removeAll()
        close(listener)
    }

    /// The clients as the server's thread last counted them: how many, and the most bytes any
    /// one of them has waiting in its outbox (beyond what its socket holds).
    public struct Census: Sendable, Hashable {
        public var clients = 0
        public var largestOutbox = 0
    }

    public var census: Census { counted.value }
    private let counted = Protected(Census())

    // MARK: Handing over (any thread)

    /// Dropped once the server is stopping: nobody will read it.
    private func post(_ delivery: Delivery) {
        mailbox.withValue { box in
            guard !box.stopping else { return }
            box.deliveries.append(delivery)
            if !box.woken { poller.wake() }
            box.woken = true
        }
    }

    // MARK: The server's thread

    private final class Client {
        let fd: Int32
        var lines = LineBuffer()
        var unread: [LineBuffer.Line] = []
        var outbox = Outbox()
        var badLines = 0
        /// A command of this client's is running on the game loop.
        var awaitingReply = false
        /// Closing once the outbox is written (a `bye`), reading nothing more.
        var closing = false
        /// It shut its sending side: its lines are answered, then the connection closes.
        var inputEnded = false
        var closed = false

        init(fd: Int32) { self.fd = fd }
    }

    private func serve(_ poller: PollLoop) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            let order = Array(clients.keys)
            for id in order {
                guard let client = clients[id] else { continue }
                var events: Int32 = 0
                if !client.awaitingReply && !client.closing && !client.inputEnded && client.unread.isEmpty && client.outbox.hasRoom {
                    events |= Int32(POLLIN)
                }
                if !client.outbox.isEmpty { events |= Int32(POLLOUT) }
                polled.append(pollfd(fd: client.fd, events: Int16(events), revents: 0))
            }
            guard let ready = poller.wait(for: polled, timeout: -1) else { return }
            polled = ready
            let (deliveries, stopping) = mailbox.withValue { box in
                defer {
                    box.deliveries.removeAll(keepingCapacity: true)
                    box.woken = false
                }
                return (box.deliveries, box.stopping)
            }
            if stopping { return }
            for delivery in deliveries { handle(delivery) }
            for (index, id) in order.enumerated() {
                guard let client = clients[id] else { continue }
                let revents = Int32(polled[index + 1].revents)
                if client.inputEnded {
                    // Gone altogether: nobody to answer.
                    if revents & Int32(POLLHUP | POLLERR) != 0 { client.closed = true }
                } else if revents & Int32(POLLIN | POLLHUP | POLLERR) != 0 {
                    receive(from: id, client, using: &buffer)
                }
            }
            if polled[0].revents != 0 { accept() }
            for (id, client) in clients {
                if !client.closed {
                    flush(client)
                    // Lines held back while its replies waited: it has read, so there may be room.
                    if !client.unread.isEmpty { process(id, client) }
                }
                let answered = client.unread.isEmpty && !client.awaitingReply && client.outbox.isEmpty
                if client.closed || (client.closing && client.outbox.isEmpty) || (client.inputEnded && answered) { drop(id) }
            }
            let census = Census(clients: clients.count, largestOutbox: clients.values.map(\.outbox.byteCount).max() ?? 0)
            counted.withValue { $0 = census }
        }
    }

    private func handle(_ delivery: Delivery) {
        switch delivery {
        case .state(let state):
            let view = ViewState(state, players: control.players)
            guard view != latest?.view else { return }
            let line = encode(.state(view))
            latest = (view, line)
            for client in clients.values where !client.closed {
                client.outbox.add(state: line)
            }
        case .reply(let id, let message):
            guard let client = clients[id], !client.closed else { return }
            client.awaitingReply = false
            send(message, to: client)
            process(id, client)
        }
    }

    private func accept() {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }
            Self.makeNonBlocking(fd)
            let client = Client(fd: fd)
            guard clients.count < limits.clients else {
                client.outbox.add(state: encode(.bye("the board serves \(limits.clients) clients already; try again when one leaves")))
                flush(client)
                Self.hangUp(client)
                continue
            }
            let id = nextClient
            nextClient += 1
            clients[id] = client
            if let latest {
                _ = client.outbox.add(reply: encode(.hello(program: program, chip: facts.chip, state: latest.view)))
                client.outbox.add(state: latest.line)
            }
        }
    }

    private func receive(from id: Int, _ client: Client, using buffer: inout [UInt8]) {
        let count = read(client.fd, &buffer, buffer.count)
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        if count == 0 {
            // It has said all it will: what it asked is answered, then it is closed (a line it
            // left unfinished is dropped: it changes nothing).
            client.inputEnded = true
            return
        }
        guard count > 0 else {
            client.closed = true
            return
        }
        client.unread += client.lines.append(buffer[..<count])
        process(id, client)
    }

    /// Takes the client's lines in order until one is a command for the game loop.
    private func process(_ id: Int, _ client: Client) {
        while !client.awaitingReply, !client.closing, !client.unread.isEmpty, client.outbox.hasRoom {
            let line = client.unread.removeFirst()
            let parsed: Result<APIRequest, RequestError>
            switch line {
            case .tooLong: parsed = .failure(.lineTooLong)
            case .complete(let bytes):
                if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
                parsed = APIRequest.parse(bytes)
            }
            switch parsed {
            case .failure(let error):
                client.badLines += 1
                send(.error(error.command, error.text), to: client)
                if client.badLines >= limits.badLinesInARow {
                    send(.bye("\(limits.badLinesInARow) bad lines in a row; closing. docs/API.md lists the commands."), to: client)
                    client.closing = true
                }
            case .success(let request):
                client.badLines = 0
                answer(request, from: id, client)
            }
        }
    }

    private func answer(_ request: APIRequest, from id: Int, _ client: Client) {
        switch request {
        case .status:
            guard let view = latest?.view else {
                send(.error(request.command, "the board has not shown its first state yet; ask again"), to: client)
                return
            }
            let counts = control.playCounts
            let now = WallTime.now()
            let saves = facts.saves()
            let health = APIMessage.Health(
                since: facts.since.description, uptimeSeconds: max(0, now.seconds - facts.since.seconds),
                gamesPlayed: counts.gamesPlayed, moves: counts.moves, saves: saves.count, lastSave: saves.last?.description,
                scanRate: facts.scanRate, chip: facts.chip)
            send(.status(view, health: health), to: client)
        case .history:
            let games = history?.games ?? []
            if historyAnswer?.games != games { historyAnswer = (games, encode(.history(games))) }
            send(encoded: historyAnswer?.line ?? encode(.history(games)), to: client)
        default:
            client.awaitingReply = true
            control.perform(request) { [weak self] reply in self?.post(.reply(client: id, reply)) }
        }
    }

    /// Queues a reply and writes what the client's socket takes now: the outbox fills only
    /// while the client does not read.
    private func send(_ message: APIMessage, to client: Client) {
        send(encoded: encode(message), to: client)
    }

    private func send(encoded line: [UInt8], to client: Client) {
        defer { flush(client) }
        if !client.outbox.add(reply: line) {
            // Cannot happen while lines are read only with room for their replies; were it to,
            // a reply must not be dropped silently: the client is closed, and sees it.
            client.closed = true
        }
    }

    private func flush(_ client: Client) {
        let fine = client.outbox.flush { bytes in
            let sent = Glibc.send(client.fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
        }
        if !fine { client.closed = true }
    }

    private func drop(_ id: Int) {
        guard let client = clients.removeValue(forKey: id) else { return }
        Self.hangUp(client)
    }

    /// Closes a client's socket having read what it sent and nobody will read: a Unix socket
    /// closed with unread data resets the connection, and the client would lose the `bye`
    /// (and any reply) still on its way to it.
    private static func hangUp(_ client: Client) {
        var sink = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 where read(client.fd, &sink, sink.count) > 0 {}
        Glibc.close(client.fd)
    }

    /// Non-blocking, and closed on exec (accept4 and pipe2 are GNU extensions Swift's Glibc
    /// module does not offer).
    private static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    private func encode(_ message: APIMessage) -> [UInt8] {
        // Encoding our own plain values cannot fail; if it ever did, the client is told.
        var bytes = (try? encoder.encode(message)).map { Array($0) } ?? Array(#"{"type":"error","text":"the board could not encode a message"}"#.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
