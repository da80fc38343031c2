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
