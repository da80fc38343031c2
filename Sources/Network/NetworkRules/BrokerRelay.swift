import Basics
import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The link between one board's socket and a broker: what the link publishes of the board, and
/// what it lets through to the board of what the broker sends. Pure: the caller does the I/O the
/// returned ``Action`` values describe (docs/NETWORK.md).
///
/// - **Published**: on each connection to the broker, Home Assistant's discovery messages
///   (``HomeAssistantDiscovery``) when given a prefix; the board's every `state` line (but a
///   change of the boards it sees alone, which is left out), retained on ``BoardTopics/state``, with the
///   ``BoardEvent``s between it and the one before on ``BoardTopics/events``; ``BoardTopics/presence``
///   `online` (retained) while both the board and the broker are reached, `offline` when the board
///   goes away (the broker sets it so, as the link's will, when the link itself drops). On each
///   connection to the broker the presence and the latest state are published again: nothing is
///   queued for a broker that is away.
/// - **Let through**, only with ``playing``: a message on ``BoardTopics/commands`` whose payload
///   is one command of the board's API, at most ``Limits/commandBytes``, one of
///   ``networkCommands``, at most ``Limits/perSecond`` a second, while the board is reached and
///   fewer than ``Limits/waiting`` commands wait for its answers. The board's answer is
///   published on ``BoardTopics/answers`` with the command's MQTT 5 correlation data.
/// - **Followed**: when the board plays another board, that board's state and presence, as
///   `heard` reports to the board (``OtherBoardFollower``), whatever ``playing`` says: the game
///   with another board is the board's own choice (at most ``Limits/perSecond`` reports a
///   second, the latest held; after an overflow of the client's inbox, subscribed to again for
///   its retained messages). Every board's, for the `seen` list of the boards online and the ones
///   that invite this board (``BoardsInView``): at most one list a second, the latest held. News
///   that finds the board's queue full is told once the board answers.
/// - **Dropped**, with a line in the log at most each ``DropLog/interval``: anything else the
///   broker sends (another topic, a payload that is not a command, too long, over the rate). A
///   well-formed command the board may not take now (a learner's reset, the board away, too
///   many waiting) is answered with an `error`, as the board answers.
///
/// Not thread-safe: the caller keeps it on one thread.
public struct BrokerRelay: Sendable {
    /// A message for the broker.
    public struct Publication: Sendable, Hashable {
        public var topic: String
        public var payload: String
        public var retain: Bool
        /// MQTT 5 correlation data: the command's, on its answer.
        public var correlation: [UInt8]?
    }

    public enum Action: Sendable, Hashable {
        case publish(Publication)
        /// Subscribe to a topic (on each connection to the broker: the session is not kept); with
        /// its retained message when `retained`.
        case subscribe(String, retained: Bool = false)
        /// End a subscription.
        case unsubscribe(String)
        /// A line to the board, without its newline.
        case board(String)
        /// A line for the log.
        case log(String)
    }

    public struct Limits: Sendable, Hashable {
        /// A command's payload: the board's own limit on a line.
        public var commandBytes = APIRequest.maximumLineLength
        /// A command's correlation data: enough for any request id.
        public var correlationBytes = 64
        /// Commands waiting for the board's answers.
        public var waiting = 16
        public var perSecond = 10

        public init() {}
    }

    /// The commands a message may send: playing, not the learner's memory.
    public static let networkCommands: Set<APIRequest.Command> = [.press, .newGame, .abandon, .opponent, .status]

    public let topics: BoardTopics
    public let playing: Bool
    public let limits: Limits
    public private(set) var boardReachable = false
    public private(set) var brokerConnected = false
    /// The board's latest state, as it is published.
    public private(set) var stateLine: String?
    private var state: ViewState?
    /// The latest state published: ``stateLine``'s.
    private var publishedState: ViewState?
    /// The commands the board has not answered, oldest first, each with its correlation data;
    /// `fromBroker` false for the link's own (`heard`), whose answers are not published.
    private var waiting: [(command: String, correlation: [UInt8]?, fromBroker: Bool)] = []
    /// The board this board plays, when it plays one.
    public private(set) var follower: OtherBoardFollower
    /// The other boards online, for the board to offer; every board heard, for the page's boards
    /// view.
    public private(set) var inView: BoardsInView
    /// Whether a new list of the boards online waits for its allowance.
    private var seenHeld = false
    /// What the boards online may send the board: a list a second, the latest held. Apart from
    /// the followed board's reports, so that no stranger's changes delay the game's.
    private var lists = CommandAllowance(perSecond: 1)
    /// News that found the board's queue of the link's own commands full: told once it answers.
    private var heardPending = false
    private var seenPending = false
    private var allowance: CommandAllowance
    /// What the followed board's messages may send the board: as many reports a second as
    /// commands. Beyond, the latest news is held, and sent when the allowance has room again
    /// (``deadline``, ``tick(at:)``): a flood costs the board ten reports a second, and the last
    /// state is never lost.
    private var reports: CommandAllowance
    /// Whether news of the followed board waits for the allowance.
    private var reportHeld = false
    private var drops = DropLog()
    /// The client's overflows, apart from the other drops: the first is always said at once.
    private var overflows = DropLog()
    /// Why the board was last said to be away: said again only when it changes.
    private var lastWhy: String?
    /// Why the broker was last said to be away, the same way.
    private var lastBrokerWhy: String?
    /// The broker's refusals of publications: said at most every ten seconds.
    private var refusals = DropLog()

    /// What makes the board a device in Home Assistant; nil: no discovery messages.
    public let discovery: HomeAssistantDiscovery?

    /// - Parameter discoveryPrefix: Home Assistant's discovery prefix (`network.discovery`);
    ///   empty for none.
    public init(board: String, playing: Bool, discoveryPrefix: String = "", limits: Limits = Limits()) {
        topics = BoardTopics(board: board)
        self.playing = playing
        self.limits = limits
        allowance = CommandAllowance(perSecond: limits.perSecond)
        reports = CommandAllowance(perSecond: limits.perSecond)
        follower = OtherBoardFollower(me: board)
        inView = BoardsInView(me: board)
        discovery = discoveryPrefix.isEmpty ? nil : HomeAssistantDiscovery(prefix: discoveryPrefix, topics: topics, playing: playing)
    }

    // MARK: The board

    public mutating func boardConnected() -> [Action] {
        boardReachable = true
        waiting.removeAll()
        lastWhy = nil
        follower.boardReconnected()
        inView.boardReconnected()
        (heardPending, seenPending) = (false, false)
        return [.log("the board is reached")]
    }

    /// A line the board sent, without its newline.
    public mutating func boardSent(_ line: String) -> [Action] {
        guard let message = try? JSONDecoder().decode(APIMessage.self, from: Data(line.utf8)) else { return [] }
        switch message.type {
        case .state:
            guard let next = message.state else { return [] }
            let first = stateLine == nil || state == nil
            let events = BoardEvent.between(state, next)
            let (shown, shownLine) = Self.published(next, line: line)
            // A change of the boards it sees alone is not published: every link reads every
            // board's state, and would pass each such change on to every board again.
            let changed = shown != publishedState || stateLine == nil
            (state, stateLine, publishedState) = (next, shownLine, shown)
            // A board just reached (restarted, or its link) knows of no board online: told now.
            let seenAgain = first ? inView.current().flatMap { $0.boards.isEmpty ? nil : $0 } : nil
            let following = follow(next) + (seenAgain.map { tell(.seen($0)) } ?? [])
            guard brokerConnected else { return following.filter { if case .board = $0 { true } else { false } } }
            return (first ? [presence()] : []) + (changed ? [publish(topics.state, shownLine, retain: true)] : [])
                + events.map { publish(topics.events, $0.json) } + following
        case .ok, .error, .status, .history:
            guard !waiting.isEmpty else { return [] }
            let answered = waiting.removeFirst()
            let again = retryPending()
            guard answered.fromBroker, brokerConnected else { return again }
            return [.publish(Publication(topic: topics.answers, payload: line, retain: false, correlation: answered.correlation))] + again
        default:
            return []
        }
    }

    /// The board went away, or could not be reached; `why` in a sentence.
    public mutating func boardLost(_ why: String) -> [Action] {
        let wasReachable = boardReachable
        boardReachable = false
        (state, stateLine, publishedState) = (nil, nil, nil)
        var actions: [Action] = waiting.filter(\.fromBroker).map {
            answer(.boardWentAway, "the board went away before it answered", correlation: $0.correlation, command: $0.command)
        }
        waiting.removeAll()
        if why != lastWhy {
            lastWhy = why
            actions.append(.log("the board cannot be reached: \(why)"))
        }
        if wasReachable && brokerConnected { actions.append(presence()) }
        return brokerConnected ? actions : actions.filter { if case .log = $0 { true } else { false } }
    }

    // MARK: The broker

    /// The broker accepted the link (`true`), or the connection ended: ``brokerLost(_:)`` says why.
    public mutating func brokerConnected(_ connected: Bool) -> [Action] {
        brokerConnected = connected
        guard connected else { return [] }
        lastBrokerWhy = nil
        let announced = discovery?.messages.map { Action.publish(Publication(topic: $0.topic, payload: $0.payload, retain: true)) } ?? []
        let followed = follower.other.map(OtherBoardFollower.topics) ?? []
        let every = BoardsInView.subscriptions.map { Action.subscribe($0, retained: true) }
        return (playing ? [.subscribe(topics.commands)] : []) + followed.map { .subscribe($0, retained: true) } + every + announced + latest()
    }

    /// The presence and the latest state, for a broker that may have missed them: at each
    /// connection, and when the client has room again after refusing a publication.
    public func latest() -> [Action] {
        guard brokerConnected else { return [] }
        return [presence()] + (stateLine.map { [publish(topics.state, $0, retain: true)] } ?? [])
    }

    /// The connection to the broker ended, or could not be made; `why` in a sentence, logged when
    /// it is news (the first failure after a connection, or a new reason).
    public mutating func brokerLost(_ why: String) -> [Action] {
        brokerConnected = false
        let away = (follower.brokerLost().map { tell(.heard($0)) } ?? []) + (inView.brokerLost().map { tell(.seen($0)) } ?? [])
        guard why != lastBrokerWhy else { return away }
        lastBrokerWhy = why
        return [.log(why)] + away
    }

    /// The broker refused a publication on `topic` (its access list, most often).
    public mutating func brokerRefused(topic: String, why: String, at now: MonotonicInstant) -> [Action] {
        let hint = topic.hasPrefix(BoardTopics.root + "/") ? " (the board's user must be its name, network.user = network.name, under the access list of docs/NETWORK.md)" : ""
        return refusals.note("the broker refused a publication on \(topic.shown(limit: 120)): \(why)\(hint)", at: now).map { [.log($0)] } ?? []
    }

    /// Messages the client could not take (its inbox full, or a topic too long): counted among
    /// the drops, each one.
    /// The followed board is subscribed to again, which brings its retained state and presence
    /// again: whatever of it was among the lost comes back.
    public mutating func overflowed(_ count: Int, at now: MonotonicInstant) -> [Action] {
        inView.lose(count)
        let again = brokerConnected ? (follower.other.map(OtherBoardFollower.topics) ?? []).map { Action.subscribe($0, retained: true) } : []
        return again + (overflows.note("dropped \(count) message\(count == 1 ? "" : "s") the link's inbox had no room for (or on topics over 128 bytes)", count: count, at: now)
            .map { [.log($0)] } ?? [])
    }

    /// A message the broker sent on `topic`, at `now`; `retained` when the broker kept it.
    public mutating func brokerSent(topic: String, payload: [UInt8], correlation: [UInt8]?, retained: Bool = false, at now: MonotonicInstant) -> [Action] {
        if BoardsInView.reads(topic) { return boardSaid(topic: topic, payload: payload, at: now) }
        guard playing, topic == topics.commands else { return drop("on \(topic.shown()), which the link does not read", at: now) }
        // A command left retained would be played again at every connection of the link.
        guard !retained else { return drop("a retained command (publish commands without retain)", at: now) }
        guard payload.count <= limits.commandBytes else { return drop("a command of \(payload.count) bytes, over \(limits.commandBytes)", at: now) }
        guard (correlation?.count ?? 0) <= limits.correlationBytes else {
            return drop("correlation data of \(correlation?.count ?? 0) bytes, over \(limits.correlationBytes)", at: now)
        }
        let request: APIRequest
        switch APIRequest.parse(payload) {
        case .success(let parsed): request = parsed
        case .failure(let refusal): return drop("not a command the board takes: \(refusal.text)", at: now)
        }
        guard allowance.take(at: now) else { return drop("more than \(limits.perSecond) commands a second", at: now) }
        guard Self.networkCommands.contains(request.kind) else {
            return [answer(.notOverNetwork, "\(request.command) is not taken from the network: use the board, its page or its terminal", correlation: correlation, command: request.command)]
        }
        guard boardReachable else {
            return [answer(.boardUnreachable, "the board cannot be reached", correlation: correlation, command: request.command)]
        }
        guard waiting.count < limits.waiting else {
            return [answer(.busy, "the board is busy answering other commands: try again in a moment", correlation: correlation, command: request.command)]
        }
        waiting.append((request.command, correlation, true))
        return [.board(request.line)]
    }

    // MARK: The other boards

    /// A board's state or presence: news of the followed board, and of the boards online.
    private mutating func boardSaid(topic: String, payload: [UInt8], at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        if let seen = inView.take(topic: topic, payload: payload) {
            if !seenHeld, lists.take(at: now) {
                actions += tell(.seen(seen))
            } else {
                seenHeld = true
            }
        }
        guard follower.reads(topic) else { return actions }
        let report = follower.heard(topic: topic, payload: payload)
        actions += follower.takeTrouble().map { [Action.log($0)] } ?? []
        guard let report else { return actions }
        guard !reportHeld, reports.take(at: now) else {
            reportHeld = true
            return actions + drop("more than \(limits.perSecond) changes a second of the board \(follower.other ?? ""): the latest held", at: now)
        }
        return actions + tell(.heard(report))
    }

    /// When the relay wants ``tick(at:)`` next: a held report's turn.
    public var deadline: MonotonicInstant? {
        let due = [reportHeld ? reports.nextPass : nil, seenHeld ? lists.nextPass : nil]
        guard reportHeld || seenHeld else { return nil }
        return due.compactMap { $0 }.min() ?? MonotonicInstant(nanoseconds: 0)
    }

    /// Time passed: a held report goes, when it may (the followed board's first).
    public mutating func tick(at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        if reportHeld, reports.take(at: now) {
            reportHeld = false
            actions += follower.current().map { tell(.heard($0)) } ?? []
        }
        if seenHeld, lists.take(at: now) {
            seenHeld = false
            actions += inView.current().map { tell(.seen($0)) } ?? []
        }
        return actions
    }

    /// What the board's `state` changes of the board it plays: subscriptions, and news for it.
    private mutating func follow(_ state: ViewState) -> [Action] {
        let change = follower.boardShows(state)
        let subscriptions: [Action] = change.unsubscribe.map { .unsubscribe($0) } + change.subscribe.map { .subscribe($0, retained: true) }
        let said = follower.takeTrouble().map { [Action.log($0)] } ?? []
        guard let report = change.report else { return (brokerConnected ? subscriptions : []) + said }
        return (brokerConnected ? subscriptions : []) + said + tell(.heard(report))
    }

    /// The link's own `request` to the board (`heard` or `seen`), if it is reached; its answer is
    /// not published. With the board's queue full, the news goes once the board answers
    /// (``retryPending()``).
    private mutating func tell(_ request: APIRequest) -> [Action] {
        guard boardReachable else { return [] }
        guard waiting.count < limits.waiting else {
            if case .seen = request { seenPending = true } else { heardPending = true }
            return []
        }
        waiting.append((request.command, nil, false))
        return [.board(request.line)]
    }

    /// The news that found the queue full, now that the board has answered one: as it is now.
    private mutating func retryPending() -> [Action] {
        var actions: [Action] = []
        if heardPending {
            heardPending = false
            actions += follower.current().map { tell(.heard($0)) } ?? []
        }
        if seenPending {
            seenPending = false
            actions += inView.current().map { tell(.seen($0)) } ?? []
        }
        return actions
    }

    /// The state as the broker is given it, and its line: the board's, without the boards it
    /// sees (each board's own; ``BoardsInView``).
    /// The state it gives for comparing is without the field at all: a board that sends none
    /// (older than it) and one that sees none publish alike.
    static func published(_ state: ViewState, line: String) -> (ViewState, String) {
        var shown = state
        shown.boardsSeen = nil
        guard let seen = state.boardsSeen, !seen.isEmpty else { return (shown, line) }
        var sent = state
        sent.boardsSeen = []
        return (shown, encode(APIMessage.state(sent)))
    }

    /// The link's own `request` to the board, if it is reached; with its queue full, `pending`
    /// says so, and the news goes once the board answers (``retryPending()``).
    private mutating func ask(_ request: APIRequest, pending: inout Bool) -> [Action] {
        guard boardReachable else { return [] }
        guard waiting.count < limits.waiting else {
            pending = true
            return []
        }
        waiting.append((request.command, nil, false))
        return [.board(request.line)]
    }

    // MARK: Messages

    private func presence() -> Action {
        publish(topics.presence, boardReachable && stateLine != nil ? BoardTopics.online : BoardTopics.offline, retain: true)
    }

    private func publish(_ topic: String, _ payload: String, retain: Bool = false) -> Action {
        .publish(Publication(topic: topic, payload: payload, retain: retain, correlation: nil))
    }

    private func answer(_ reason: ErrorReason, _ text: String, correlation: [UInt8]?, command: String? = nil) -> Action {
        .publish(Publication(topic: topics.answers, payload: Self.encode(APIMessage.error(command, reason, text)), retain: false, correlation: correlation))
    }

    private mutating func drop(_ why: String, at now: MonotonicInstant) -> [Action] {
        drops.note("dropped a message: \(why)", at: now).map { [.log($0)] } ?? []
    }

    /// A value as one line of JSON, keys sorted as the board's are.
    public static func encode(_ value: some Encodable) -> String { JSONLine.encode(value) ?? "{}" }
}
