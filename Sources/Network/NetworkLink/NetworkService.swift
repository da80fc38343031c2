import Basics
import BoardProtocol
import NetworkRules
#if canImport(Glibc)
import Glibc
#endif

/// The link between the board and a broker (docs/NETWORK.md): the board only through its socket
/// (``BoardLink``), the broker through a ``BrokerClient``, and between them a ``BrokerRelay``,
/// on one ``PollLoop``.
///
/// ## Contract
/// - Its own thread, started by ``start()``; ``stop()`` closes the board's socket, says goodbye
///   to the broker (which sets the presence `offline`: the will is sent all the same), and
///   returns once both threads have ended. Everything else is confined to the loop's thread.
/// - Whatever the board or the broker does (away, back, refusing, slow), the other side goes on:
///   each is tried again on its own, the board every ``Options/retry``, the broker as
///   ``BrokerClient`` does.
/// - Lines for the log go to ``Options/log``, on the loop's thread.
/// - Every board it hears goes to ``Options/boardsFile`` for the web view (``BoardsListFile``).
public final class NetworkService: Sendable {
    public struct Options: Sendable {
        /// The board's socket.
        public var boardSocket: String
        /// The board's name on the broker.
        public var board: String
        /// Whether messages may change the game (`network.allow = "play"`).
        public var playing: Bool
        /// Home Assistant's discovery prefix (`network.discovery`); empty: none.
        public var discovery = ""
        public var broker: BrokerClient.Options
        /// Where the link keeps the boards list for the web view's boards view
        /// (``BoardsListFile``); `nil`: nowhere.
        public var boardsFile: String?
        /// How often the link tries to reach a board that is away.
        public var retry: Duration = .seconds(1)
        public var now: @Sendable () -> MonotonicInstant = MonotonicInstant.now
        public var log: @Sendable (String) -> Void = { _ in }

        var presenceTopic: String { BoardTopics(board: board).presence }

        public init(boardSocket: String, board: String, playing: Bool, broker: BrokerClient.Options) {
            self.boardSocket = boardSocket
            self.board = board
            self.playing = playing
            self.broker = broker
        }
    }

    public let options: Options
    private let loop = PollLoop(named: "network")
    private let client: BrokerClient

    public init(options: Options) throws(BrokerClient.Failure) {
        self.options = options
        var broker = options.broker
        let topics = BoardTopics(board: options.board)
        broker.will = (topics.presence, BoardTopics.offline)
        broker.notify = { [loop] in loop.wake() }
        client = try BrokerClient(options: broker)
    }

    /// Connects to both sides and relays between them, on the service's thread, until ``stop()``.
    public func start() {
        client.start()
        loop.start { [self] loop in
            let link = BoardLink(path: options.boardSocket, retry: options.retry)
            var relay = BrokerRelay(board: options.board, playing: options.playing, discoveryPrefix: options.discovery)
            var listFile = options.boardsFile.map { BoardsListFile(path: $0, broker: "\(client.address)") }
            // The board is tried at once, whatever the broker does.
            if let first = link.connectIfDue(at: options.now()) { perform(board(first, link: link, relay: &relay), link: link) }
            while true {
                let deadline = [link.deadline, relay.deadline, listFile?.due(relay.inView, connected: relay.brokerConnected)].compactMap { $0 }.min()
                let timeout = deadline.map { Int32(clamping: max(1, ($0 - options.now()).nanoseconds / 1_000_000 + 1)) } ?? -1
                guard let answered = loop.wait(for: [link.pollRequest], timeout: timeout) else { break }
                let moment = options.now()
                perform(relay.tick(at: moment), link: link)
                for event in link.serve(answered[0].revents, at: moment) + (link.connectIfDue(at: moment).map { [$0] } ?? []) {
                    perform(board(event, link: link, relay: &relay), link: link)
                }
                for event in client.take() {
                    perform(broker(event, relay: &relay, at: moment), link: link)
                }
                if let line = listFile?.update(relay.inView, connected: relay.brokerConnected, at: moment) { options.log(line) }
            }
            listFile?.remove()
            link.close()
        }
    }

    /// Stops relaying, says goodbye to the broker, and returns once both threads have ended.
    public func stop() {
        loop.stop()
        client.stop()
    }

    private func board(_ event: BoardLink.Event, link: BoardLink, relay: inout BrokerRelay) -> [BrokerRelay.Action] {
        switch event {
        case .connected: relay.boardConnected()
        case .line(let bytes): relay.boardSent(String(decoding: bytes, as: UTF8.self))
        case .closed, .unreachable: relay.boardLost(link.absence(after: event, client: "the link")?.text ?? "")
        }
    }

    private func broker(_ event: BrokerClient.Event, relay: inout BrokerRelay, at now: MonotonicInstant) -> [BrokerRelay.Action] {
        switch event {
        case .connected:
            return [.log("connected to the broker at \(client.address) as \(relay.topics.board)")] + relay.brokerConnected(true)
        case .disconnected(let why), .loginRefused(let why):
            return relay.brokerLost(why)
        case .message(let topic, let payload, let correlation, let retained):
            return relay.brokerSent(topic: topic, payload: payload, correlation: correlation, retained: retained, at: now)
        case .overflowed(let count):
            return relay.overflowed(count, at: now)
        case .drained:
            return relay.latest()
        case .publicationRefused(let topic, let why):
            return relay.brokerRefused(topic: topic, why: why, at: now)
        }
    }

    private func perform(_ actions: [BrokerRelay.Action], link: BoardLink) {
        for action in actions {
            switch action {
            case .publish(let message):
                // The presence acknowledged: a broker that refuses the board's topics says so.
                _ = client.publish(BrokerClient.Publication(
                    topic: message.topic, payload: Array(message.payload.utf8), retain: message.retain, correlation: message.correlation,
                    acknowledged: message.topic == options.presenceTopic))
            case .subscribe(let topic, let retained): client.subscribe(topic, retained: retained)
            case .unsubscribe(let topic): client.unsubscribe(topic)
            case .board(let line): link.send(line)
            case .log(let line): options.log(line)
            }
        }
    }
}
