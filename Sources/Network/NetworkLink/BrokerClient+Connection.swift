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
            guard state.unacknowledged.values.reduce(0, +) + publication.payload.count <= options.outboxBytes else {
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
            mosquitto_publish_v5(mosquitto, &id, publication.topic, Int32($0.count), $0.baseAddress, 1, publication.retain, properties)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else { return false }
        shared.state.withLock { state in
            // Acknowledged already, on the client's thread, before the id came back here.
            if state.acknowledgedEarly.remove(id) == nil { state.unacknowledged[id] = publication.payload.count }
        }
        return true
    }

    /// Subscribes to `topic` (QoS 0: a command is taken at most once) for this connection.
    public func subscribe(_ topic: String) {
        _ = mosquitto_subscribe_v5(mosquitto, nil, topic, 0, 0, nil)
    }

    /// The client's thread: connect, serve the connection until it ends, pause, again.
    func run(_ loop: PollLoop) {
        var pause = options.retry
        var reported: String?
        while !loop.isStopping {
            let why = connectAndServe(loop)
            if loop.isStopping { break }
            if shared.state.withLock({ $0.wasAccepted }) { pause = options.retry }
            if why != reported {
                reported = why
                shared.add(.disconnected(why: why))
            }
            guard loop.pause(pause) else { break }
            pause = min(pause * 2, options.longestRetry)
        }
    }

    /// One connection, from the attempt to its end; why it ended, in a sentence.
    private func connectAndServe(_ loop: PollLoop) -> String {
        shared.state.withLock { state in
            state.why = nil
            state.wasAccepted = false
            state.unacknowledged = [:]
            state.acknowledgedEarly = []
        }
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), options.largestIncoming)
        let seconds = Int32(clamping: options.keepalive.components.seconds)
        var code = mosquitto_connect_bind_v5(mosquitto, options.host, Int32(options.port), seconds, nil, properties)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            return "the broker at \(options.host):\(options.port) cannot be reached: \(Self.describe(code))"
        }
        while !loop.isStopping {
            code = mosquitto_loop(mosquitto, 250, 1)
            guard code == MOSQ_ERR_SUCCESS.rawValue else { break }
        }
        let why = shared.state.withLock { state in
            state.connected = false
            return state.why
        }
        return why ?? "the connection to the broker at \(options.host):\(options.port) ended: \(Self.describe(code))"
    }

    /// libmosquitto's error `code` in words (the system's for an error of its own).
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return TextFile.describeErrno(errno) }
        return String(cString: mosquitto_strerror(code))
    }
}

extension BrokerClient.Shared {
    /// A message from the broker, on the client's thread: into the inbox, or counted as dropped.
    func received(topic: String, payload: UnsafeRawPointer?, count: Int, properties: OpaquePointer?) {
        // The link's own name: "tictactoe/" + 32 + "/commands" and some.
        guard topic.utf8.count <= 128 else { return dropOne() }
        var correlation: [UInt8]?
        var value: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        if mosquitto_property_read_binary(properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &value, &length, false) != nil {
            correlation = value.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
            free(value)
        }
        let bytes = payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        let admitted = state.withLock { state -> Bool in
            guard state.inboxBytes + bytes.count <= options.inboxBytes else {
                state.dropped += 1
                return false
            }
            state.inboxBytes += bytes.count
            state.events.append(.message(topic: topic, payload: bytes, correlation: correlation))
            return true
        }
        if admitted { options.notify() }
    }

    func dropOne() {
        state.withLock { $0.dropped += 1 }
    }
}
