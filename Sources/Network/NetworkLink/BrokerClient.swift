import Basics
import CLibmosquitto
import ConfigurationFile
#if canImport(Glibc)
import Glibc
#endif

/// One client of an MQTT broker, libmosquitto's, speaking MQTT 5 (over TLS when given the
/// authorities to check the broker by), on a thread of its own that connects, keeps the
/// connection, and connects again after a growing pause (``Options/retry`` doubling up to
/// ``Options/longestRetry``) whenever it is lost or refused, for as long as it runs.
///
/// ## Contract
/// - **Threads.** ``start()`` starts the client's thread; ``publish(_:)`` and ``subscribe(_:)``
///   may be called from any thread; ``stop()`` from any but the client's, at most once taking
///   effect: it says goodbye to the broker (asking it to send the will all the same), and returns
///   once the thread has ended. What happens reaches the caller as ``Event``s, taken with ``take()``, and
///   ``Options/notify`` is called (on the client's thread) whenever one is added: the owner wakes
///   its own loop with it.
/// - **Bounded.** The broker is told the largest packet the client takes
///   (``Options/largestIncoming``, MQTT 5's maximum packet size): it never sends a larger one.
///   The events waiting to be taken hold at most ``Options/inboxBytes`` of topics, payloads and
///   correlation data; a message over that is dropped and counted in ``Event/overflowed(_:)``.
///   Publications not yet written out hold at most ``Options/outboxBytes``: ``publish(_:)``
///   refuses one over that, and the owner publishes its latest state again once
///   ``Event/drained`` says there is room. (A hostile broker could still send one packet larger
///   than it was told: libmosquitto 2.0 does not check what it receives against the limit. Use
///   TLS to a broker you run.)
/// - **No queue while away.** A publication while the client is not connected is refused, and
///   every publication is QoS 0, so none is kept to be sent again on a later connection: the
///   owner publishes what it must again on ``Event/connected``. (A message libmosquitto has not
///   written out when a connection ends is dropped with it.)
public final class BrokerClient: @unchecked Sendable {
    public struct Options: Sendable {
        public var broker: BrokerAddress
        public var clientID: String
        public var user: String?
        public var password: String?
        /// PEM files: the authorities (TLS when given), a client certificate and its key.
        public var caFile: String?
        public var certificate: String?
        public var certificateKey: String?
        /// What the broker publishes for the client when it drops without saying goodbye.
        public var will: (topic: String, payload: String)?
        public var keepalive: Duration = .seconds(30)
        public var retry: Duration = .seconds(1)
        public var longestRetry: Duration = .seconds(30)
        public var largestIncoming: UInt32 = 8_192
        public var inboxBytes = 262_144
        public var outboxBytes = 262_144
        public var notify: @Sendable () -> Void = {}

        public init(broker: BrokerAddress, clientID: String) {
            self.broker = broker
            self.clientID = clientID
        }
    }

    public enum Event: Sendable, Hashable {
        /// The broker accepted the connection: subscribe and publish what it must know.
        case connected
        /// The connection was lost, refused or could not be made; `why` in a sentence. Told at
        /// every attempt that fails: the owner says it when it is news.
        case disconnected(why: String)
        /// The broker refused the client's user and password (or certificate): told instead of
        /// ``disconnected(why:)`` at each such attempt, and tried again all the same (the broker's
        /// password file may change); an owner that cannot wait says so and stops.
        case loginRefused(why: String)
        /// `retained`: the broker kept it, and sends it to whoever subscribes.
        case message(topic: String, payload: [UInt8], correlation: [UInt8]?, retained: Bool)
        /// Messages dropped since the last event because the inbox was full.
        case overflowed(Int)
        /// Publications were refused for want of room, and now there is room again.
        case drained
        /// The broker refused a publication on `topic` (its access list, most often); `why` in words.
        case publicationRefused(topic: String, why: String)
    }

    /// A message to publish: QoS 0 (see the contract), or QoS 1 when `acknowledged`, for a small
    /// message whose refusal by the broker must be heard (MQTT 5's acknowledgement says why),
    /// and which may harmlessly come twice.
    public struct Publication: Sendable, Hashable {
        public var topic: String
        public var payload: [UInt8]
        public var retain: Bool
        public var correlation: [UInt8]?
        public var acknowledged: Bool

        public init(topic: String, payload: [UInt8], retain: Bool, correlation: [UInt8]? = nil, acknowledged: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
            self.correlation = correlation
            self.acknowledged = acknowledged
        }
    }

    /// What the client's thread and its callers share.
    final class Shared: @unchecked Sendable {
        struct State {
            var events: [Event] = []
            var inboxBytes = 0
            var dropped = 0
            var connected = false
            /// Bytes and topic of each publication not yet written out, by message id.
            var unacknowledged: [Int32: (bytes: Int, topic: String)] = [:]
            var acknowledgedEarly: Set<Int32> = []
            var refusedForRoom = false
            /// Why the broker refused the connection, when it did.
            var why: String?
            /// It refused the client's credentials.
            var loginRefused = false
            /// The broker accepted this connection (the pause before the next starts short again).
            var wasAccepted = false
        }
        let options: Options
        let state = Locked(State())
        init(options: Options) { self.options = options }

        func add(_ event: Event) {
            state.withLock { $0.events.append(event) }
            options.notify()
        }
    }

    public let options: Options
    let mosquitto: OpaquePointer
    let shared: Shared
    private let context: Unmanaged<Shared>
    private let loop = PollLoop(named: "broker")

    /// Why the client cannot be made.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init(options: Options) throws(Failure) {
        self.options = options
        BrokerClient.initialiseLibrary
        shared = Shared(options: options)
        context = Unmanaged.passRetained(shared)
        guard let made = mosquitto_new(options.clientID, true, context.toOpaque()) else {
            context.release()
            throw Failure(description: "libmosquitto could not make a client: \(TextFile.describeErrno(errno))")
        }
        mosquitto = made
        // Every property is set: a failure from here on runs deinit, which frees both.
        try configure()
    }

    deinit {
        loop.stop()
        mosquitto_destroy(mosquitto)
        context.release()
    }

    private static let initialiseLibrary: Void = { _ = mosquitto_lib_init() }()

    private func configure() throws(Failure) {
        func check(_ code: Int32, _ what: String) throws(Failure) {
            guard code == MOSQ_ERR_SUCCESS.rawValue else { throw Failure(description: "\(what): \(Self.describe(code))") }
        }
        try check(mosquitto_int_option(mosquitto, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "MQTT 5")
        try check(mosquitto_threaded_set(mosquitto, true), "threads")
        if options.user != nil || options.password != nil {
            try check(mosquitto_username_pw_set(mosquitto, options.user, options.password), "the user name and password")
        }
        if let caFile = options.caFile {
            try check(mosquitto_tls_set(mosquitto, caFile, nil, options.certificate, options.certificateKey, nil), "TLS (the certificate files)")
            try check(mosquitto_tls_opts_set(mosquitto, 1, nil, nil), "TLS (checking the broker's certificate)")
            try check(mosquitto_tls_insecure_set(mosquitto, false), "TLS (checking the broker's name)")
        }
        if let will = options.will {
            try check(mosquitto_will_set_v5(mosquitto, will.topic, Int32(will.payload.utf8.count), will.payload, 1, true, nil), "the will")
        }
        setCallbacks()
    }

    /// libmosquitto's callbacks, on the client's thread: each reaches ``Shared`` through the
    /// context the client was made with, and takes its lock only for its own update.
    private func setCallbacks() {
        mosquitto_connect_v5_callback_set(mosquitto) { _, context, code, _, _ in
            guard let shared = BrokerClient.shared(context) else { return }
            if code == 0 {
                shared.state.withLock {
                    $0.connected = true
                    $0.wasAccepted = true
                }
                shared.add(.connected)
            } else {
                shared.state.withLock {
                    $0.why = "the broker refused the connection: \(BrokerClient.refusal(code))"
                    $0.loginRefused = BrokerClient.isLoginRefusal(code)
                }
            }
        }
        mosquitto_disconnect_v5_callback_set(mosquitto) { _, context, reason, _ in
            BrokerClient.shared(context)?.state.withLock { state in
                state.connected = false
                if reason == Int32(MQTT_RC_SESSION_TAKEN_OVER.rawValue) {
                    state.why = "another client connected with the link's client id, and the broker let it take the session"
                } else if reason >= 0x80 {
                    state.why = "the broker ended the connection: \(String(cString: mosquitto_reason_string(reason)))"
                }
            }
        }
        setPublishedCallback()
        mosquitto_message_v5_callback_set(mosquitto) { _, context, message, properties in
            guard let shared = BrokerClient.shared(context), let message = message?.pointee, let topic = message.topic else { return }
            shared.received(topic: String(cString: topic), payload: message.payload, count: Int(message.payloadlen), retained: message.retain, properties: properties)
        }
    }

    /// A publication written out (QoS 0) or acknowledged (QoS 1): its bytes no longer count, a
    /// refusal is told, and room is told when a refused publication waits for it.
    private func setPublishedCallback() {
        mosquitto_publish_v5_callback_set(mosquitto) { _, context, id, reason, _ in
            guard let shared = BrokerClient.shared(context) else { return }
            let (drained, topic) = shared.state.withLock { state in
                let sent = state.unacknowledged.removeValue(forKey: id)
                if sent == nil { state.acknowledgedEarly.insert(id) }
                guard state.refusedForRoom, state.unacknowledged.values.reduce(0, { $0 + $1.bytes }) < shared.options.outboxBytes / 2 else { return (false, sent?.topic) }
                state.refusedForRoom = false
                return (true, sent?.topic)
            }
            if drained { shared.add(.drained) }
            // An acknowledged publication's reason: a refusal is 0x80 or more.
            if reason >= 0x80, let topic {
                shared.add(.publicationRefused(topic: topic, why: String(cString: mosquitto_reason_string(reason))))
            }
        }
    }

    private static func shared(_ context: UnsafeMutableRawPointer?) -> Shared? {
        context.map { Unmanaged<Shared>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Starts the client's thread: it connects, and connects again whenever the connection ends.
    public func start() {
        loop.start { [self] loop in run(loop) }
    }

    /// Says goodbye to the broker, asking it to publish the will all the same (MQTT 5's
    /// "disconnect with will message": a link that stops leaves its board offline, as one that
    /// drops does), and returns once the client's thread has ended.
    public func stop() {
        guard !loop.isStopping else { return }
        mosquitto_disconnect_v5(mosquitto, Int32(MQTT_RC_DISCONNECT_WITH_WILL_MSG.rawValue), nil)
        loop.stop()
    }

    /// The events since the last call, oldest first.
    public func take() -> [Event] {
        shared.state.withLock { state in
            defer {
                state.events = []
                state.inboxBytes = 0
                state.dropped = 0
            }
            return state.dropped > 0 ? state.events + [.overflowed(state.dropped)] : state.events
        }
    }
}
