import Basics
import BoardProtocol
@testable import NetworkRules
import Foundation
import Testing

/// A `state` line as the board sends it: `marks` in reading order ("X", "O" or " ").
func stateLine(_ marks: String = "         ", turn: String? = "X", outcome: String = "playing", opponent: String = "two-players", starter: String = "X") -> String {
    let cells = marks.map { $0 == " " ? "\"\"" : "\"\($0)\"" }.joined(separator: ",")
    let turnText = turn.map { "\"\($0)\"" } ?? "null"
    return #"{"state":{"asleep":false,"cells":[\#(cells)],"flashing":null,"headline":"x-to-move","looks":[],"names":{"o":null,"x":null},"opponent":"\#(opponent)","outcome":"\#(outcome)","scores":{},"starter":"\#(starter)","thinking":false,"turn":\#(turnText),"winningLines":[]},"type":"state"}"#
}

private let start = MonotonicInstant(nanoseconds: 1_000_000_000)

private func published(_ actions: [BrokerRelay.Action]) -> [BrokerRelay.Publication] {
    actions.compactMap { if case .publish(let publication) = $0 { publication } else { nil } }
}

private func logged(_ actions: [BrokerRelay.Action]) -> [String] {
    actions.compactMap { if case .log(let line) = $0 { line } else { nil } }
}

/// A relay with the board and the broker both reached, and the board's first state seen.
private func connectedRelay(playing: Bool = true, limits: BrokerRelay.Limits = BrokerRelay.Limits()) -> BrokerRelay {
    var relay = BrokerRelay(board: "kitchen", playing: playing, limits: limits)
    _ = relay.boardConnected()
    _ = relay.brokerConnected(true)
    _ = relay.boardSent(stateLine())
    return relay
}

@Suite("What the link publishes of the board, and lets through to it")
struct BrokerRelayTests {
    @Test("on reaching both sides: the commands subscribed (playing only), the presence online and the state retained")
    func publishesOnConnecting() {
        var relay = BrokerRelay(board: "kitchen", playing: true)
        _ = relay.boardConnected()
        #expect(relay.brokerConnected(true) == [
            .subscribe("tictactoe/kitchen/commands"), .subscribe("tictactoe/+/state", retained: true), .subscribe("tictactoe/+/presence", retained: true),
            .publish(.init(topic: "tictactoe/kitchen/presence", payload: "offline", retain: true)),
        ])
        let first = published(relay.boardSent(stateLine()))
        #expect(first == [.init(topic: "tictactoe/kitchen/presence", payload: "online", retain: true), .init(topic: "tictactoe/kitchen/state", payload: stateLine(), retain: true)])
        _ = relay.brokerConnected(false)
        #expect(relay.boardSent(stateLine("    X    ", turn: "O")).isEmpty, "nothing is published for a broker that is away")
        #expect(published(relay.brokerConnected(true)).map(\.payload) == ["online", stateLine("    X    ", turn: "O")], "the latest state again on connecting")
        var watching = BrokerRelay(board: "kitchen", playing: false)
        #expect(!watching.brokerConnected(true).contains(.subscribe("tictactoe/kitchen/commands")))
    }

    @Test("each change of state is published, with the moves, the end and the new game between")
    func events() {
        var relay = connectedRelay()
        #expect(published(relay.boardSent(stateLine("    X    ", turn: "O"))).map(\.payload).last == #"{"cell":5,"number":1,"player":"X","type":"move"}"#)
        // A move and the reply to it in one state: in the order they were made, whose turn it was first.
        let both = published(relay.boardSent(stateLine("O   X   X", turn: "O"))).filter { $0.topic == "tictactoe/kitchen/events" }.map(\.payload)
        #expect(both == [#"{"cell":7,"number":2,"player":"O","type":"move"}"#, #"{"cell":3,"number":3,"player":"X","type":"move"}"#])
        let won = published(relay.boardSent(stateLine("OO XXXX  ", turn: nil, outcome: "x-wins"))).filter { $0.topic.hasSuffix("events") }.map(\.payload)
        #expect(won.last == #"{"outcome":"x-wins","type":"game-over"}"#)
        #expect(published(relay.boardSent(stateLine(turn: "O", starter: "O"))).last?.payload == #"{"starter":"O","type":"new-game"}"#)
        #expect(published(relay.boardSent(stateLine(turn: "O", opponent: "computer-4", starter: "O"))).last?.payload == #"{"opponent":"computer-4","type":"opponent"}"#)
    }

    @Test("a command goes to the board and its answer comes back with the command's correlation data, in order")
    func commandAndAnswer() {
        var relay = connectedRelay()
        #expect(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: Array(#"{"command":"press","cell":5}"#.utf8), correlation: [1], at: start) == [.board(#"{"command":"press","cell":5}"#)])
        #expect(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: Array(#"{"command":"status"}"#.utf8), correlation: nil, at: start) == [.board(#"{"command":"status"}"#)])
        let answer = published(relay.boardSent(#"{"command":"press","text":"X took cell 5.","type":"ok"}"#))
        #expect(answer == [.init(topic: "tictactoe/kitchen/answers", payload: #"{"command":"press","text":"X took cell 5.","type":"ok"}"#, retain: false, correlation: [1])])
        #expect(published(relay.boardSent(#"{"health":{},"type":"status"}"#)).first?.correlation == nil)
    }

    @Test("the learner's reset, lessons and history are not taken from the network: refused with a reason, never sent to the board")
    func notOverNetwork() {
        var relay = connectedRelay()
        for command in [#"{"command":"reset-learner"}"#, #"{"command":"teach","games":5,"level":1}"#, #"{"command":"history"}"#] {
            let answer = published(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: Array(command.utf8), correlation: [7], at: start))
            #expect(answer.count == 1 && answer[0].payload.contains(#""reason":"not-over-network""#) && answer[0].correlation == [7], "\(command)")
        }
    }

    @Test("wrong messages are dropped with a log line at most every ten seconds: another topic, too long, not a command, over the rate, watching only")
    func drops() {
        var relay = connectedRelay(limits: { var limits = BrokerRelay.Limits(); limits.perSecond = 2; return limits }())
        let wrong: [(String, [UInt8])] = [
            ("tictactoe/other/commands", Array(#"{"command":"press","cell":1}"#.utf8)),
            ("tictactoe/kitchen/commands", [UInt8](repeating: 0x20, count: 4097)),
            ("tictactoe/kitchen/commands", Array("{\"command\":".utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 3000)),
            ("tictactoe/kitchen/commands", [0xFF, 0xFE]),
        ]
        var lines: [String] = []
        for (topic, payload) in wrong {
            let actions = relay.brokerSent(topic: topic, payload: payload, correlation: nil, at: start)
            #expect(actions.allSatisfy { if case .log = $0 { true } else { false } }, "\(topic): \(actions)")
            lines += logged(actions)
        }
        #expect(lines.count == 1 && lines[0].contains("tictactoe/other/commands"))
        let later = start + .seconds(11)
        let press = Array(#"{"command":"press","cell":1}"#.utf8)
        #expect(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: press, correlation: nil, at: later).count == 1)
        #expect(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: press, correlation: nil, at: later).count == 1)
        let over = relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: press, correlation: nil, at: later)
        #expect(logged(over) == ["dropped a message: more than 2 commands a second (and 3 more in the last 10s or so, not logged)"])
        var watching = connectedRelay(playing: false)
        #expect(logged(watching.brokerSent(topic: "tictactoe/kitchen/commands", payload: press, correlation: nil, at: start)).count == 1)
    }

    @Test("a board away: commands answered board-unreachable, waiting ones board-went-away, the presence offline; said once per reason")
    func boardAway() {
        var relay = connectedRelay()
        _ = relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: Array(#"{"command":"new-game"}"#.utf8), correlation: [9], at: start)
        let lost = relay.boardLost("the board closed the connection")
        #expect(published(lost).map(\.payload).contains { $0.contains("board-went-away") })
        #expect(published(lost).last == .init(topic: "tictactoe/kitchen/presence", payload: "offline", retain: true))
        #expect(logged(lost) == ["the board cannot be reached: the board closed the connection"])
        #expect(relay.boardLost("the board closed the connection").isEmpty)
        let refused = published(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: Array(#"{"command":"new-game"}"#.utf8), correlation: nil, at: start))
        #expect(refused.count == 1 && refused[0].payload.contains("board-unreachable"))
        _ = relay.boardConnected()
        #expect(published(relay.boardSent(stateLine())).first?.payload == "online")
    }

    @Test("at most the limit of commands wait for the board: the next is answered busy")
    func busy() {
        var limits = BrokerRelay.Limits()
        limits.waiting = 2
        limits.perSecond = 100
        var relay = connectedRelay(limits: limits)
        let press = Array(#"{"command":"status"}"#.utf8)
        for _ in 0..<2 { #expect(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: press, correlation: nil, at: start).count == 1) }
        #expect(published(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: press, correlation: nil, at: start)).first?.payload.contains(#""reason":"busy""#) == true)
    }

    @Test("the keypad numbers of the cells in reading order")
    func keypad() {
        #expect((0..<9).map(BoardEvent.keypad) == [7, 8, 9, 4, 5, 6, 1, 2, 3])
    }
}

@Suite("The board as a Home Assistant device")
struct HomeAssistantDiscoveryTests {
    @Test("on each connection: the sensors and, when playing, the new-game button, retained, each read from the board's topics")
    func announced() throws {
        var relay = BrokerRelay(board: "kitchen", playing: true, discoveryPrefix: "homeassistant")
        _ = relay.boardConnected()
        let configs = published(relay.brokerConnected(true)).filter { $0.topic.hasPrefix("homeassistant/") }
        #expect(configs.map(\.topic) == [
            "homeassistant/sensor/kitchen/tictactoe-turn/config", "homeassistant/sensor/kitchen/tictactoe-result/config",
            "homeassistant/sensor/kitchen/tictactoe-score/config", "homeassistant/button/kitchen/tictactoe-new-game/config",
        ])
        #expect(configs.allSatisfy { $0.retain })
        for config in configs {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any])
            #expect(object["availability_topic"] as? String == "tictactoe/kitchen/presence")
            #expect((object["unique_id"] as? String)?.hasPrefix("tictactoe-kitchen-") == true)
            #expect((object["device"] as? [String: Any])?["identifiers"] as? [String] == ["tictactoe-kitchen"])
            if config.topic.contains("/sensor/") {
                #expect(object["state_topic"] as? String == "tictactoe/kitchen/state")
            } else {
                #expect(object["command_topic"] as? String == "tictactoe/kitchen/commands")
                #expect(object["payload_press"] as? String == #"{"command":"new-game"}"#)
                // What the button sends is a command the link lets through.
                let press = Array((object["payload_press"] as? String ?? "").utf8)
                #expect(relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: press, correlation: nil, at: start) == [.board(#"{"command":"new-game"}"#)])
            }
        }
        var watching = BrokerRelay(board: "kitchen", playing: false, discoveryPrefix: "homeassistant")
        #expect(!published(watching.brokerConnected(true)).contains { $0.topic.contains("/button/") }, "no button where messages may not play")
        var quiet = BrokerRelay(board: "kitchen", playing: true)
        #expect(!published(quiet.brokerConnected(true)).contains { $0.topic.hasPrefix("homeassistant/") })
    }
}

@Suite("What the link says and drops, once and not again")
struct BrokerRelayNewsTests {
    @Test("a retained command is dropped: it would be played again at every connection")
    func retainedCommand() {
        var relay = connectedRelay()
        let actions = relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: Array(#"{"command":"abandon"}"#.utf8), correlation: nil, retained: true, at: start)
        #expect(logged(actions).first?.contains("retained") == true && actions.count == 1)
    }

    @Test("the broker's loss is said when it is news: the first after each connection, or a new reason")
    func brokerLost() {
        var relay = connectedRelay()
        #expect(logged(relay.brokerLost("the connection ended")) == ["the connection ended"])
        #expect(relay.brokerLost("the connection ended").isEmpty, "retries with the same reason are quiet")
        #expect(logged(relay.brokerLost("refused")) == ["refused"])
        _ = relay.brokerConnected(true)
        #expect(logged(relay.brokerLost("refused")) == ["refused"], "a loss after a connection is news again")
        #expect(!relay.brokerConnected, "nothing is published for a broker that is away")
    }

    @Test("the inbox's overflows and the broker's refusals are logged at most every ten seconds; a refusal of the board's topics says what to check")
    func rateLimited() {
        var relay = connectedRelay()
        #expect(logged(relay.overflowed(5, at: start)) == ["dropped 5 messages the link's inbox had no room for (or on topics over 128 bytes)"])
        #expect(relay.overflowed(7, at: start + .seconds(1)).isEmpty)
        #expect(logged(relay.overflowed(1, at: start + .seconds(12))).first?.hasSuffix("(and 7 more in the last 10s or so, not logged)") == true, "each message counted")
        let refused = logged(relay.brokerRefused(topic: "tictactoe/kitchen/presence", why: "Not authorized", at: start))
        #expect(refused.count == 1 && refused[0].contains("network.user = network.name"))
        #expect(relay.brokerRefused(topic: "tictactoe/kitchen/state", why: "Not authorized", at: start + .seconds(2)).isEmpty)
    }

    @Test("a command the board never answered is answered board-went-away, naming the command")
    func wentAwayNamesCommand() {
        var relay = connectedRelay()
        _ = relay.brokerSent(topic: "tictactoe/kitchen/commands", payload: Array(#"{"command":"press","cell":1}"#.utf8), correlation: [3], at: start)
        let answer = published(relay.boardLost("gone")).first
        #expect(answer?.payload.contains(#""command":"press""#) == true && answer?.payload.contains("board-went-away") == true && answer?.correlation == [3])
    }
}

@Suite("The events between two states")
struct BoardEventTests {
    private func state(_ line: String) -> ViewState? {
        try? JSONDecoder().decode(APIMessage.self, from: Data(line.utf8)).state
    }

    @Test("several moves in one step (a client that fell behind is sent the latest state): no order invented, the count told")
    func mergedMoves() throws {
        let before = try #require(state(stateLine()))
        let after = try #require(state(stateLine("X O   X  ", turn: "O")))
        #expect(BoardEvent.between(before, after) == [.caughtUp(moves: 3)])
        #expect(BoardEvent.caughtUp(moves: 3).json == #"{"moves":3,"type":"caught-up"}"#)
        // A move and the reply to it: both known, in order.
        let replied = try #require(state(stateLine("X   O    ", turn: "X")))
        #expect(BoardEvent.between(before, replied) == [.move(player: "X", cell: 7, number: 1), .move(player: "O", cell: 5, number: 2)])
    }

    @Test("a new game missed between two steps is told, then the moves in it")
    func missedNewGame() throws {
        let before = try #require(state(stateLine("XXXOO    ", turn: nil, outcome: "x-wins")))
        let after = try #require(state(stateLine("    O    ", turn: "X", starter: "O")))
        #expect(BoardEvent.between(before, after) == [.newGame(starter: "O"), .move(player: "O", cell: 5, number: 1)])
    }

    @Test("giving up an empty board hands the start to the other: a new game")
    func abandonedEmpty() throws {
        let before = try #require(state(stateLine()))
        let after = try #require(state(stateLine(turn: "O", starter: "O")))
        #expect(BoardEvent.between(before, after) == [.newGame(starter: "O")])
        #expect(BoardEvent.between(before, before).isEmpty, "a state like the one before tells nothing")
    }
}
