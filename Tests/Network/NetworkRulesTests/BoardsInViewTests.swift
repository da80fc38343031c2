import Basics
import BoardProtocol
@testable import NetworkRules
import Testing

private func online(_ board: String) -> (String, [UInt8]) { ("tictactoe/\(board)/presence", Array("online".utf8)) }

@Suite("The boards a link sees online, for its board to offer")
struct BoardsInViewTests {
    @Test("every other board online, the ones that invite this board first, then by name; offline, cleared, or this board itself: not listed; a forged state changes nothing")
    func lists() {
        var view = BoardsInView(me: "attic")
        for (topic, payload) in [online("kitchen"), online("cellar"), online("attic"), online("porch")] {
            _ = view.take(topic: topic, payload: payload)
        }
        #expect(view.seen.boards.map(\.board) == ["cellar", "kitchen", "porch"], "by name, without the attic itself")
        let invited = view.take(topic: "tictactoe/porch/state", payload: Array(stateLine(opponent: "board:attic").utf8))
        #expect(invited?.boards.first == SeenReport.Board(board: "porch", invites: true), "the porch plays the attic, the attic playing O: an invitation")
        #expect(view.take(topic: "tictactoe/kitchen/state", payload: Array(stateLine(opponent: "board:attic:x").utf8)) == nil,
                "a board that joins the attic's game is no invitation: nothing new")
        #expect(view.take(topic: "tictactoe/cellar/state", payload: Array(stateLine(opponent: "board:kitchen").utf8)) == nil, "another board's invitation is not this one's")
        _ = view.take(topic: "tictactoe/cellar/presence", payload: Array("offline".utf8))
        _ = view.take(topic: "tictactoe/kitchen/presence", payload: [])
        #expect(view.seen.boards == [SeenReport.Board(board: "porch", invites: true)], "offline and cleared: gone")
        #expect(view.take(topic: "tictactoe/porch/state", payload: Array(#"{"state":{"opponent":"board:attic"},"type":"state"}"#.utf8)) == nil,
                "a state that is no board's changes nothing")
        #expect(view.take(topic: "tictactoe/porch/state", payload: [])?.boards == [SeenReport.Board(board: "porch", invites: false)],
                "its state cleared: online, inviting no more")
    }

    @Test("news only when the list changes; all of it again for a board that came back; none seen once the broker is lost; at most sixteen, inviters kept")
    func news() {
        var view = BoardsInView(me: "attic")
        #expect(view.take(topic: online("kitchen").0, payload: online("kitchen").1)?.boards.count == 1)
        #expect(view.take(topic: online("kitchen").0, payload: online("kitchen").1) == nil, "repeated: nothing")
        view.boardReconnected()
        #expect(view.take(topic: online("kitchen").0, payload: online("kitchen").1)?.boards.count == 1, "told again after the board came back")
        for number in 1...30 { _ = view.take(topic: online("board\(number)").0, payload: online("board\(number)").1) }
        _ = view.take(topic: "tictactoe/zzz/state", payload: Array(stateLine(opponent: "board:attic").utf8))
        _ = view.take(topic: online("zzz").0, payload: online("zzz").1)
        #expect(view.seen.boards.count == SeenReport.most && view.seen.boards.first == SeenReport.Board(board: "zzz", invites: true))
        #expect(view.seen.problem == nil, "what the link sends, the board takes")
        #expect(view.brokerLost()?.boards == [])
        #expect(view.brokerLost() == nil)
    }
}

/// The boards online through the relay: what reaches the board, and what it publishes of them.
@Suite("The boards online, through the link")
struct BoardsInViewRelayTests {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    static func toBoard(_ actions: [BrokerRelay.Action]) -> [String] {
        actions.compactMap { if case .board(let line) = $0 { line } else { nil } }
    }

    static func relay(waiting: Int = 16) -> BrokerRelay {
        var limits = BrokerRelay.Limits()
        limits.waiting = waiting
        var relay = BrokerRelay(board: "attic", playing: true, limits: limits)
        _ = relay.boardConnected()
        _ = relay.brokerConnected(true)
        _ = relay.boardSent(stateLine())
        return relay
    }

    @Test("a board that shows the attic as its choice is no invitation until the choice has settled (the gesture passing by)")
    func settledChoiceOnly() {
        var view = BoardsInView(me: "attic")
        _ = view.take(topic: "tictactoe/porch/presence", payload: Array("online".utf8))
        let passing = stateLine(opponent: "board:attic").replacingOccurrences(of: #""headline":"x-to-move""#, with: #""headline":"choosing-opponent""#)
        #expect(view.take(topic: "tictactoe/porch/state", payload: Array(passing.utf8)) == nil, "shown, not settled: nothing new")
        #expect(view.take(topic: "tictactoe/porch/state", payload: Array(stateLine(opponent: "board:attic").utf8))?.boards
                == [SeenReport.Board(board: "porch", invites: true)])
    }

    @Test("the boards a board sees are not published: a change of them alone publishes nothing, and the state goes out without them")
    func notPublished() throws {
        var relay = Self.relay()
        let seen = stateLine().replacingOccurrences(of: #""names""#, with: #""boardsSeen":[{"board":"porch","invites":true}],"names""#)
        let published = relay.boardSent(seen).compactMap { if case .publish(let publication) = $0 { publication } else { nil } }
        #expect(published.isEmpty, "the same state but for the boards seen: \(published)")
        let moved = stateLine("X        ", turn: "O").replacingOccurrences(of: #""names""#, with: #""boardsSeen":[{"board":"porch","invites":true}],"names""#)
        let state = try #require(relay.boardSent(moved).compactMap { if case .publish(let publication) = $0, publication.topic == "tictactoe/attic/state" { publication } else { nil } }.first)
        #expect(state.payload.contains(#""boardsSeen":[]"#) && !state.payload.contains("porch") && state.payload.contains(#""cells":["X""#), "\(state.payload)")
    }

    @Test("news that finds the board's queue full is told once it answers: the list as it is then")
    func toldWhenTheBoardAnswers() {
        var relay = Self.relay(waiting: 1)
        #expect(Self.toBoard(relay.brokerSent(topic: "tictactoe/+/commands".replacingOccurrences(of: "+", with: "attic"),
                                              payload: Array(#"{"command":"status"}"#.utf8), correlation: nil, at: Self.start)).count == 1)
        let full = relay.brokerSent(topic: "tictactoe/porch/presence", payload: Array("online".utf8), correlation: nil, at: Self.start)
        #expect(Self.toBoard(full).isEmpty, "the one place taken by the status")
        let answered = relay.boardSent(#"{"command":"status","text":"","type":"ok"}"#)
        #expect(Self.toBoard(answered) == [#"{"boards":[{"board":"porch","invites":false}],"command":"seen"}"#])
    }

    @Test("a board reached again (restarted, or its link's socket) is told the boards online with its first state, however quiet the broker")
    func toldAgainOnReconnecting() {
        var relay = Self.relay()
        _ = relay.brokerSent(topic: "tictactoe/porch/presence", payload: Array("online".utf8), correlation: nil, at: Self.start)
        _ = relay.boardSent(#"{"command":"seen","text":"","type":"ok"}"#)
        _ = relay.boardLost("closed")
        _ = relay.boardConnected()
        #expect(Self.toBoard(relay.boardSent(stateLine())) == [#"{"boards":[{"board":"porch","invites":false}],"command":"seen"}"#])
        #expect(Self.toBoard(relay.boardSent(stateLine("X        ", turn: "O"))).isEmpty, "once")
    }

    @Test("an overflow of the client's inbox: the followed board subscribed to again, for its retained state and presence")
    func overflowFollowsAgain() {
        var relay = Self.relay()
        _ = relay.boardSent(pairedLine(other: "kitchen", mark: "X", game: 0, here: false))
        let actions = relay.overflowed(3, at: Self.start)
        #expect(actions.contains(.subscribe("tictactoe/kitchen/state", retained: true)) && actions.contains(.subscribe("tictactoe/kitchen/presence", retained: true)))
    }
}
