import Basics
import BoardProtocol
import ViewModel
import Reactive
#if canImport(Glibc)
import Glibc
#endif

/// Serves the board's API on a listening Unix socket: a hello and the view state to each
/// client on connecting, then one state message per change of what the board shows, and a
/// reply to each command (docs/API.md is the protocol).
///
/// The server is the transport alone: it accepts, polls, reads and writes (on ``PollLoop``),
/// and keeps a file descriptor and a ``ClientSession`` for each client, which decides what is
/// read, answered and sent; what each command does is the ``CommandHandler``'s.
///
/// ## Contract
/// - **Off the game loop.** Connections are accepted, read, parsed, encoded and written on a
///   thread of the server's own. The game loop only hands each new session state over
///   (``RemoteControl/observeStates(_:)``: a copy and, when the server is idle, one wake-up),
///   the same cost for no client as for the most it takes. Commands run on the loop one at a time per client:
///   a client's next line is read only once its command is answered.
/// - **One message per change, in order.** Every client gets the states in the order the board
///   took them, each once; a state that shows the same as the last one sent is not sent, and
///   each new one is encoded once for every client. A client that does not read falls behind by
///   at most one state (the newest replaces one not yet begun); the game never waits for it.
/// - **Bounded.** At most ``Limits/clients`` clients: the next one is sent a `bye` naming the
///   limit and closed. A line over ``APIRequest/maximumLineLength``, not UTF-8, not JSON, or not a command gets an `error`
///   naming the problem and the connection stays usable; after ``Limits/badLinesInARow`` bad
///   lines in a row it is closed with a `bye`. A client that disconnects mid-line changes
///   nothing; one that shuts its sending side after its lines gets their replies, then is closed.
/// - **Back-pressure, not loss.** A client is read only while its session ``ClientSession/wantsInput``
///   (its outbox has room: fewer than ``Outbox/byteLimit`` bytes and a few replies wait): a
///   client that sends faster than it reads is not read until it has read, and every reply it
///   asked for reaches it, in order. What a client can make the server hold is bounded in
///   bytes: one read (``readSize``) of lines, and its outbox.
/// - **Another board's reports end with their client.** A client that has sent `heard` about
///   another board (the network link) is the board's only word of it: when it goes, and no
///   other client reports that board, the board hears it offline, so that a link stopped or
///   crashed leaves the game waiting, not waiting on news that cannot come.
/// - ``stop()`` closes every connection and the listening socket and returns once the server's
///   thread has ended; the observation of the state ends on the game loop.
public final class BoardAPIServer: @unchecked Sendable {
    /// The most one read takes of a client's lines: all a client can make the board hold of
    /// them, beside its outbox.
    public static let readSize = 16_384
    /// The bytes waiting for a client past which its lines are read no further (its outbox).
    public static var outboxByteLimit: Int { Outbox.byteLimit }
    /// The replies that may wait for a client, the next line's included (its outbox).
    public static var outboxReplyLimit: Int { Outbox.replyLimit }

    public struct Limits: Sendable, Hashable {
        public var clients: Int
        public var badLinesInARow: Int

        public init(clients: Int = 32, badLinesInARow: Int = 16) {
            self.clients = clients
            self.badLinesInARow = badLinesInARow
        }
    }

    /// The clients as the server's thread last counted them: how many, and the most bytes any
    /// one of them has waiting in its outbox (beyond what its socket holds).
    public struct Census: Sendable, Hashable {
        public var clients = 0
        public var largestOutbox = 0
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

    /// One client: its socket, and its side of the protocol.
    private final class Connection {
        let fd: Int32
        var session: ClientSession

        init(fd: Int32, session: ClientSession) {
            self.fd = fd
            self.session = session
        }

        /// Reading only while the session wants input is the back-pressure.
        var pollRequest: pollfd {
            var events: Int32 = 0
            if session.wantsInput { events |= Int32(POLLIN) }
            if session.wantsOutput { events |= Int32(POLLOUT) }
            return pollfd(fd: fd, events: Int16(events), revents: 0)
        }

        /// What the socket takes now, never waiting (0 when it is full, `nil` when it failed):
        /// the session keeps the rest.
        func send(_ bytes: UnsafeRawBufferPointer) -> Int? {
            let sent = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
        }
    }

    /// The server's own thread (not the game loop, `loop`).
    private let poller = PollLoop(named: "board-api")

    private let listener: Int32
    private let control: RemoteControl
    private let loop: any Scheduler
    private let program: String
    private let chip: APIMessage.ChipName
    private let limits: Limits
    private let mailbox = Protected(Mailbox())
    private let observation = SerialDisposable()
    private let running = Protected(false)
    private let counted = Protected(Census())

    // Confined to the server's thread.
    private var connections: [Int: Connection] = [:]
    private var nextClient = 0
    /// The other board each client last sent `heard` about.
    private var reporters: [Int: String] = [:]
    /// The clients that sent `seen`: when the last goes, no board is seen.
    private var seers: Set<Int> = []
    private var latest: (view: ViewState, line: [UInt8])?
    /// The learner's digest, worked out once for each learner and count of games (its beads
    /// change with nothing else): not once for each state, which would cost a pass over its
    /// boxes at every press.
    private var learnerDigest: (resets: Int, games: Int, digest: String)?
    private var handler: CommandHandler
    private let encoder = MessageEncoder()

    /// - Parameters:
    ///   - listener: a listening Unix stream socket (``UnixSocket/listen(at:backlog:)``, or the
    ///     one systemd passed); the server owns it from now on and closes it in ``stop()``.
    ///   - program: "tictactoe" and ``ProgramVersion/current``, for the hello.
    ///   - history: the finished games, for `history`; `nil` answers with none.
    public init(
        listener: Int32, control: RemoteControl, loop: any Scheduler, program: String, facts: Facts, history: (any GameArchive)?,
        limits: Limits = Limits()
    ) {
        self.listener = listener
        self.control = control
        self.loop = loop
        self.program = program
        self.chip = facts.chip
        self.limits = limits
        handler = CommandHandler(control: control, facts: facts, history: history, encoder: encoder)
        Socket.makeNonBlocking(listener)
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
        for connection in connections.values { Socket.hangUp(connection.fd) }
        connections.removeAll()
        close(listener)
    }

    public var census: Census { counted.value }

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

    /// What was handed over since the last turn, or `nil` once the server is stopping.
    private func takeDeliveries() -> [Delivery]? {
        mailbox.withValue { box in
            defer {
                box.deliveries.removeAll(keepingCapacity: true)
                box.woken = false
            }
            return box.stopping ? nil : box.deliveries
        }
    }

    // MARK: The server's thread

    private func serve(_ poller: PollLoop) {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while true {
            // Kept, to match each answer to its connection: one accepted meanwhile was not polled.
            let polled = Array(connections)
            let asked = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)] + polled.map(\.value.pollRequest)
            guard let ready = poller.wait(for: asked, timeout: -1), let deliveries = takeDeliveries() else { return }
            for delivery in deliveries { handle(delivery) }
            for (index, (id, connection)) in polled.enumerated() {
                receive(from: id, connection, events: Int32(ready[index + 1].revents), using: &buffer)
            }
            if ready[0].revents != 0 { accept() }
            for id in Array(connections.keys) { tend(id) }
            let largest = connections.values.lazy.map(\.session.waitingBytes).max() ?? 0
            let census = Census(clients: connections.count, largestOutbox: largest)
            counted.withValue { $0 = census }
        }
    }

    private func handle(_ delivery: Delivery) {
        switch delivery {
        case .state(let state):
            let learner = state.learner
            if learnerDigest.map({ $0.resets != learner.resets || $0.games != learner.record.games }) ?? true {
                learnerDigest = (learner.resets, learner.record.games, learner.digest)
            }
            let view = ViewState(state, players: control.players, marks: control.marks, learnerDigest: learnerDigest?.digest)
            guard view != latest?.view else { return }
            let line = encoder.line(.state(view))
            latest = (view, line)
            for connection in connections.values { connection.session.show(state: line) }
        case .reply(let id, let message):
            guard let connection = connections[id] else { return }
            connection.session.reply(encoder.line(message))
            serveLines(of: id, connection)
        }
    }

    private func accept() {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }
            Socket.makeNonBlocking(fd)
            guard connections.count < limits.clients else {
                turnAway(fd)
                continue
            }
            let greeting = latest.map { latest in
                (hello: encoder.line(.hello(program: program, chip: chip, state: latest.view)), state: latest.line)
            }
            let session = ClientSession(greeting: greeting, badLinesInARow: limits.badLinesInARow, encoder: encoder)
            connections[nextClient] = Connection(fd: fd, session: session)
            nextClient += 1
        }
    }

    /// A client over the limit: told why in one write (a new socket's buffer holds a `bye`),
    /// then closed.
    private func turnAway(_ fd: Int32) {
        let bye = encoder.line(.bye("the board serves \(limits.clients) clients already; try again when one leaves"))
        _ = bye.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        Socket.hangUp(fd)
    }

    private func receive(from id: Int, _ connection: Connection, events: Int32, using buffer: inout [UInt8]) {
        if connection.session.hasInputEnded {
            // Gone altogether: nobody to answer.
            if events & Int32(POLLHUP | POLLERR) != 0 { connection.session.connectionLost() }
            return
        }
        guard events & Int32(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        let count = read(connection.fd, &buffer, buffer.count)
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        if count == 0 {
            connection.session.inputEnded()
        } else if count < 0 {
            connection.session.connectionLost()
        } else {
            connection.session.received(buffer[..<count])
            serveLines(of: id, connection)
        }
    }

    /// Answers the client's lines while its outbox has room (``ClientSession/answerLines(_:write:)``);
    /// stops at a command sent to the game loop.
    private func serveLines(of id: Int, _ connection: Connection) {
        let shown = latest?.view
        connection.session.answerLines({ request in
            switch request {
            case .heard(let report): reporters[id] = report.board
            case .seen: seers.insert(id)
            default: break
            }
            let answer = handler.answer(request, shown: shown) { [weak self] reply in
                self?.post(.reply(client: id, reply))
            }
            guard case .now(let line) = answer else { return nil }
            return line
        }, write: connection.send)
    }

    /// Each turn, for every client: write, take the lines that were held back while its replies
    /// waited (it may have read since), and close it once it is done.
    private func tend(_ id: Int) {
        guard let connection = connections[id] else { return }
        serveLines(of: id, connection)
        guard connection.session.isFinished else { return }
        connections[id] = nil
        Socket.hangUp(connection.fd)
        // Once no link tells of them, no board is seen online; and the other board it reported
        // is not heard (in this order: that one's change is said in the log, the list's is not).
        if seers.remove(id) != nil, seers.isEmpty {
            control.perform(.seen(SeenReport(boards: []))) { _ in }
        }
        if let board = reporters.removeValue(forKey: id), !reporters.values.contains(board) {
            control.perform(.heard(HeardReport(board: board, online: false, game: nil))) { _ in }
        }
    }
}
