import Basics
import CLibmosquitto
#if canImport(Glibc)
import Glibc
#endif

extension BrokerClient {
    /// Queues `publication` for the broker (QoS 1); false when the client is not connected or
    /// ``Options/outboxBytes`` are not yet acknowledged (then ``Event/drained`` follows).
    public func publish(_ publication: Publication) -> Bool {
        let admitted = shared.state.withLock { state -> Bool in
            guard state.connected else { return false }
            guard state.unacknowledged.values.reduce(0, { $0 + $1.bytes }) + publication.payload.count <= options.outboxBytes else {
                state.refusedForRoom = true
                return false
            }
            return true
        }
        guard admitted else { return false }
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let correlation = publication.correlation {
            _ = correlation.withUnsafeBytes {
                mosquitto_property_add_binary(&properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), $0.baseAddress, UInt16(correlation.count))
            }
        }
        var id: Int32 = 0
        let code = publication.payload.withUnsafeBytes {
            mosquitto_publish_v5(mosquitto, &id, publication.topic, Int32($0.count), $0.baseAddress, publication.acknowledged ? 1 : 0, publication.retain, properties)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else { return false }
        shared.state.withLock { state in
            // Acknowledged already, on the client's thread, before the id came back here.
            if state.acknowledgedEarly.remove(id) == nil { state.unacknowledged[id] = (publication.payload.count, publication.topic) }
        }
        return true
    }

    /// Subscribes to `topic` for this connection, QoS 0 (a command is taken at most once). The
    /// retained messages come on subscribing only when asked for (`retained`): a command left
    /// retained must never be played again at every connection, while a list of the boards is
    /// made of their retained states.
    public func subscribe(_ topic: String, retained: Bool = false) {
        let options = retained ? 0 : Int32(MQTT_SUB_OPT_SEND_RETAIN_NEVER.rawValue)
        _ = mosquitto_subscribe_v5(mosquitto, nil, topic, 0, options, nil)
    }

    /// Ends the subscription to `topic` for this connection.
    public func unsubscribe(_ topic: String) {
        _ = mosquitto_unsubscribe_v5(mosquitto, nil, topic, nil)
    }

    /// The client's thread: connect, serve the connection until it ends, pause, again.
    func run(_ loop: PollLoop) {
        var pause = options.retry
        while !loop.isStopping {
            let why = connectAndServe(loop)
            if loop.isStopping { break }
            let (accepted, loginRefused) = shared.state.withLock { ($0.wasAccepted, $0.loginRefused) }
            if accepted { pause = options.retry }
            shared.add(loginRefused ? .loginRefused(why: why) : .disconnected(why: why))
            guard loop.pause(pause) else { break }
            pause = min(pause * 2, options.longestRetry)
        }
    }

    /// The broker as messages name it: `HOST:PORT`, an IPv6 address in brackets.
    var address: String { options.broker.description }

    /// One connection, from the attempt to its end; why it ended, in a sentence.
    private func connectAndServe(_ loop: PollLoop) -> String {
        shared.state.withLock { state in
            state.why = nil
            state.loginRefused = false
            state.wasAccepted = false
            state.unacknowledged = [:]
            state.acknowledgedEarly = []
        }
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), options.largestIncoming)
        let seconds = Int32(clamping: options.keepalive.components.seconds)
        var code = mosquitto_connect_bind_v5(mosquitto, options.broker.host, Int32(options.broker.port), seconds, nil, properties)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            return "the broker at \(address) cannot be reached: \(Self.describe(code))"
        }
        while !loop.isStopping {
            code = mosquitto_loop(mosquitto, 250, 1)
            guard code == MOSQ_ERR_SUCCESS.rawValue else { break }
        }
        let why = shared.state.withLock { state in
            state.connected = false
            return state.why
        }
        return why ?? "the connection to the broker at \(address) ended: \(Self.describe(code))"
    }

    /// libmosquitto's error `code` in words (the system's for an error of its own), with what to
    /// check where its own words say little.
    static func describe(_ code: Int32) -> String {
        switch code {
        case MOSQ_ERR_ERRNO.rawValue: TextFile.describeErrno(errno)
        case MOSQ_ERR_TLS.rawValue:
            "TLS failed: check that network.ca-file is a PEM file holding the authority that signed the broker's certificate, that the certificate names the host network.broker gives, and that the port is the broker's TLS one"
        case MOSQ_ERR_PROTOCOL.rawValue, MOSQ_ERR_UNKNOWN.rawValue, MOSQ_ERR_CONN_LOST.rawValue:
            "\(String(cString: mosquitto_strerror(code))) (is it an MQTT broker? a TLS port reached without network.ca-file?)"
        case MOSQ_ERR_KEEPALIVE.rawValue: "the broker did not answer in time (is it an MQTT broker, and not overloaded?)"
        case MOSQ_ERR_NO_CONN.rawValue: "the broker closed the connection"
        default: String(cString: mosquitto_strerror(code))
        }
    }

    /// Why the broker refused a connection, with what to check.
    static func refusal(_ code: Int32) -> String {
        let words = String(cString: mosquitto_reason_string(code))
        guard isLoginRefusal(code) else { return words }
        return "\(words): check network.user and the password file's first line against the broker's password file"
    }

    /// Whether the broker's refusal `code` is of the client's user and password.
    static func isLoginRefusal(_ code: Int32) -> Bool {
        code == Int32(MQTT_RC_NOT_AUTHORIZED.rawValue) || code == Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue)
    }
}

extension BrokerClient.Shared {
    /// A message from the broker, on the client's thread: into the inbox, or counted as dropped.
    func received(topic: String, payload: UnsafeRawPointer?, count: Int, retained: Bool, properties: OpaquePointer?) {
        // The link's own name: "tictactoe/" + 32 + "/commands" and some.
        guard topic.utf8.count <= 128 else { return dropOne() }
        var correlation: [UInt8]?
        var value: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        if mosquitto_property_read_binary(properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &value, &length, false) != nil {
            correlation = value.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
            free(value)
        }
        let size = topic.utf8.count + count + (correlation?.count ?? 0)
        state.withLock { state in
            guard state.inboxBytes + size <= options.inboxBytes else {
                state.dropped += 1
                return
            }
            state.inboxBytes += size
            // Copied once it has room: a message over the bound is never copied at all.
            let bytes = payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            state.events.append(.message(topic: topic, payload: bytes, correlation: correlation, retained: retained))
        }
        // A drop is news too: the owner hears of it now, not at the next message.
        options.notify()
    }

    func dropOne() {
        state.withLock { $0.dropped += 1 }
        options.notify()
    }
}
