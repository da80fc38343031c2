import Basics

/// The messages that make a board a device in Home Assistant, through its MQTT discovery
/// (docs/NETWORK.md): four entities read from the board's own topics, so Home Assistant needs
/// nothing of this project but the broker.
///
/// - `sensor` "Whose turn": "X", "O", or "none" once the game is over;
/// - `sensor` "Result": the outcome, "playing", "x-wins", "o-wins" or "draw";
/// - `sensor` "Score": the current pairing's, "X 2 · O 1 · draws 0";
/// - `button` "New game" (only when messages may play): `{"command":"new-game"}` on the board's
///   commands, which the board takes once a game is over, as its own new-game button.
///
/// Each is published retained on `<prefix>/<component>/<board>/tictactoe-<entity>/config` (the
/// board's name as the node: an access list can give a board its own name only as a whole level),
/// with the board's presence as its availability; the link publishes them on each connection.
public struct HomeAssistantDiscovery: Sendable, Hashable {
    public let prefix: String
    public let topics: BoardTopics
    public let playing: Bool

    public init(prefix: String, topics: BoardTopics, playing: Bool) {
        self.prefix = prefix
        self.topics = topics
        self.playing = playing
    }

    /// The board's device id, and the beginning of its entities' unique ids.
    public var device: String { "tictactoe-\(topics.board)" }

    /// The configuration messages, topic and payload.
    public var messages: [(topic: String, payload: String)] {
        var entities = [
            entity("sensor", "turn", name: "Whose turn", fields: ["value_template": "{{ value_json.state.turn or 'none' }}", "icon": "mdi:account-arrow-right"]),
            entity("sensor", "result", name: "Result", fields: ["value_template": "{{ value_json.state.outcome }}", "icon": "mdi:trophy"]),
            entity("sensor", "score", name: "Score", fields: [
                "value_template":
                    "{% set s = value_json.state.scores[value_json.state.opponent] %}X {{ s.xWins }} · O {{ s.oWins }} · draws {{ s.draws }}",
                "icon": "mdi:scoreboard",
            ]),
        ]
        if playing {
            entities.append(entity("button", "new-game", name: "New game", fields: ["command_topic": topics.commands, "payload_press": #"{"command":"new-game"}"#]))
        }
        return entities
    }

    private func entity(_ component: String, _ id: String, name: String, fields: [String: String]) -> (topic: String, payload: String) {
        var all = fields
        all["name"] = name
        all["unique_id"] = "\(device)-\(id)"
        all["availability_topic"] = topics.presence
        if component == "sensor" { all["state_topic"] = topics.state }
        let described = Device(identifiers: [device], name: "Tic-tac-toe \(topics.board)", manufacturer: "tictactoe-gpio", model: "tictactoe-gpio board", sw_version: ProgramVersion.current)
        return ("\(prefix)/\(component)/\(topics.board)/tictactoe-\(id)/config", BrokerRelay.encode(Config(fields: all, device: described)))
    }

    private struct Device: Encodable {
        var identifiers: [String]
        var name: String
        var manufacturer: String
        var model: String
        var sw_version: String
    }

    /// The fields, and the device beside them, as one JSON object.
    private struct Config: Encodable {
        var fields: [String: String]
        var device: Device

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try container.encode(value, forKey: Key(key)) }
            try container.encode(device, forKey: Key("device"))
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }
}
