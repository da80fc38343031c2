import Basics
import CLibmosquitto
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
///   The events waiting to be taken hold at most ``Options/inboxBytes`` of payload; a message
///   over that is dropped and counted in ``Event/overflowed(_:)``. Publications not yet
///   acknowledged by the broker hold at most ``Options/outboxBytes``: ``publish(_:)`` refuses
///   one over that, and the owner publishes its latest state again once ``Event/drained`` says
///   there is room.
/// - **No queue while away.** A publication while the client is not connected is refused: the
///   owner publishes what it must again on ``Event/connected``.
public final class BrokerClient: @unchecked Sendable {
    public struct Options: Sendable {
        public var host: String
        public var port: UInt16
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

        public init(host: String, port: UInt16, clientID: String) {
            self.host = host
            self.port = port
            self.clientID = clientID
        }
    }

    public enum Event: Sendable, Hashable {
        /// The broker accepted the connection: subscribe and publish what it must know.
        case connected
        /// The connection was lost, refused or could not be made; `why` in a sentence.
        case disconnected(why: String)
        case message(topic: String, payload: [UInt8], correlation: [UInt8]?)
        /// Messages dropped since the last event because the inbox was full.
        case overflowed(Int)
        /// Publications were refused for want of room, and now there is room again.
        case drained
    }

    /// A message to publish (QoS 1).
    public struct Publication: Sendable, Hashable {
        public var topic: String
        public var payload: [UInt8]
        public var retain: Bool
        public var correlation: [UInt8]?

        public init(topic: String, payload: [UInt8], retain: Bool, correlation: [UInt8]? = nil) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
            self.correlation = correlation
        }
    }

    /// What the client's thread and its callers share.
    final class Shared: @unchecked Sendable {
        struct State {
            var events: [Event] = []
            var inboxBytes = 0
            var dropped = 0
            var connected = false
            /// Bytes of each publication the broker has not acknowledged, by message id.
            var unacknowledged: [Int32: Int] = [:]
            var acknowledgedEarly: Set<Int32> = []
            var refusedForRoom = false
            /// Why the broker refused the connection, when it did.
            var why: String?
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
        do { try configure() } catch {
            mosquitto_destroy(made)
            context.release()
            throw error
        }
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
                shared.state.withLock { $0.why = "the broker refused the connection: \(String(cString: mosquitto_reason_string(code)))" }
            }
        }
        mosquitto_disconnect_v5_callback_set(mosquitto) { _, context, _, _ in
            BrokerClient.shared(context)?.state.withLock { $0.connected = false }
        }
        mosquitto_publish_v5_callback_set(mosquitto) { _, context, id, _, _ in
            guard let shared = BrokerClient.shared(context) else { return }
            let drained = shared.state.withLock { state in
                if state.unacknowledged.removeValue(forKey: id) == nil { state.acknowledgedEarly.insert(id) }
                guard state.refusedForRoom, state.unacknowledged.values.reduce(0, +) < shared.options.outboxBytes / 2 else { return false }
                state.refusedForRoom = false
                return true
            }
            if drained { shared.add(.drained) }
        }
        mosquitto_message_v5_callback_set(mosquitto) { _, context, message, properties in
            guard let shared = BrokerClient.shared(context), let message = message?.pointee, let topic = message.topic else { return }
            shared.received(topic: String(cString: topic), payload: message.payload, count: Int(message.payloadlen), properties: properties)
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
