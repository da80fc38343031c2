import Basics
import BoardProtocol
@testable import NetworkRules
import Foundation
import Testing

/// A `state` line of a board playing `other` (which plays `mark`), at the pairing's `game`.
func pairedLine(other: String, mark: String = "O", game: Int = 1, here: Bool = true, moves: [Int] = []) -> String {
    let line = stateLine(opponent: mark == "O" ? "board:\(other)" : "board:\(other):x")
    let pairing = #","otherBoard":{"board":"\#(other)","game":\#(game),"here":\#(here),"mark":"\#(mark)","moves":[\#(moves.map(String.init).joined(separator: ","))]}"#
    return line.replacingOccurrences(of: #","outcome""#, with: pairing + #","outcome""#)
}

private func state(_ line: String) throws -> ViewState {
    try #require(try JSONDecoder().decode(APIMessage.self, from: Data(line.utf8)).state)
}

private let start = MonotonicInstant(nanoseconds: 1_000_000_000)

private func toBoard(_ actions: [BrokerRelay.Action]) -> [String] {
    actions.compactMap { if case .board(let line) = $0 { line } else { nil } }
}

@Suite("What the link follows of the board its board plays")
struct OtherBoardFollowerTests {
    @Test("the board's state names the other board: its state and presence are read; another one, the first no more")
    func subscribes() throws {
        var follower = OtherBoardFollower(me: "attic")
        let first = follower.boardShows(try state(pairedLine(other: "kitchen")))
        #expect(first.subscribe == ["tictactoe/kitchen/state", "tictactoe/kitchen/presence"] && first.unsubscribe.isEmpty)
        #expect(first.report == HeardReport(board: "kitchen", online: false, game: nil), "not heard yet: away")
        #expect(follower.boardShows(try state(pairedLine(other: "kitchen", moves: [5]))).subscribe.isEmpty, "the same board: nothing new to read")
        let next = follower.boardShows(try state(pairedLine(other: "cellar")))
        #expect(next.unsubscribe == ["tictactoe/kitchen/state", "tictactoe/kitchen/presence"] && next.subscribe.count == 2)
        let none = follower.boardShows(try state(stateLine()))
        #expect(none.unsubscribe.count == 2 && none.subscribe.isEmpty && none.report == nil && follower.other == nil)
        #expect(!follower.reads("tictactoe/cellar/state"))
    }

    @Test("the other board's state against this one, while its presence is online: its mark (the other of the two), game, moves and the game before")
    func reports() throws {
        var follower = OtherBoardFollower(me: "attic")
        _ = follower.boardShows(try state(pairedLine(other: "kitchen", mark: "X", game: 0, here: false)))
        // Kitchen invited attic: kitchen's state names attic playing O.
        let theirs = Array(pairedLine(other: "attic", mark: "O", game: 3, moves: [5, 1]).utf8)
        #expect(follower.heard(topic: "tictactoe/kitchen/state", payload: theirs) == nil, "its presence not heard yet: still away, no news")
        let online = follower.heard(topic: "tictactoe/kitchen/presence", payload: Array("online".utf8))
        #expect(online == HeardReport(board: "kitchen", online: true, game: .init(mark: "X", number: 3, moves: [5, 1])))
        #expect(follower.heard(topic: "tictactoe/kitchen/state", payload: theirs) == nil, "the same again: no news")
        let offline = follower.heard(topic: "tictactoe/kitchen/presence", payload: Array("offline".utf8))
        #expect(offline == HeardReport(board: "kitchen", online: false, game: nil))
        _ = follower.heard(topic: "tictactoe/kitchen/presence", payload: Array("online".utf8))
        #expect(follower.brokerLost() == HeardReport(board: "kitchen", online: false, game: nil), "no broker: away")
        _ = follower.heard(topic: "tictactoe/kitchen/presence", payload: Array("online".utf8))
        let next = pairedLine(other: "attic", mark: "O", game: 4, moves: [2]).replacingOccurrences(of: #""moves":[2]"#, with: #""moves":[2],"previous":[5,1,9]"#)
        #expect(follower.heard(topic: "tictactoe/kitchen/state", payload: Array(next.utf8))
                == HeardReport(board: "kitchen", online: true, game: .init(mark: "X", number: 4, moves: [2], previous: [5, 1, 9])), "the game before, passed on")
        let bad = next.replacingOccurrences(of: "[5,1,9]", with: "[5,5]")
        #expect(follower.heard(topic: "tictactoe/kitchen/state", payload: Array(bad.utf8))?.game == nil, "a game before that no game has: no game")
    }

    @Test("a state that does not play this board, is at no game, says a mark that is none, moves off the board, or is not a state: no game")
    func noGame() throws {
        var follower = OtherBoardFollower(me: "attic")
        _ = follower.boardShows(try state(pairedLine(other: "kitchen", mark: "X", game: 0, here: false)))
        _ = follower.heard(topic: "tictactoe/kitchen/presence", payload: Array("online".utf8))
        let good = pairedLine(other: "attic", game: 2, moves: [5])
        #expect(follower.heard(topic: "tictactoe/kitchen/state", payload: Array(good.utf8))?.game?.number == 2)
        let bad = [
            pairedLine(other: "cellar", game: 2, moves: [5, 1]),
            pairedLine(other: "attic", game: 0),
            pairedLine(other: "attic", mark: "Z", game: 2),
            pairedLine(other: "attic", game: 2, moves: [5, 5]),
            pairedLine(other: "attic", game: 2, moves: [10]),
            stateLine(),
            "not json",
            pairedLine(other: "attic", game: 2, moves: [5]) + String(repeating: " ", count: OtherBoardFollower.largestState),
        ]
        for line in bad {
            _ = follower.heard(topic: "tictactoe/kitchen/state", payload: Array(good.utf8))
            #expect(follower.heard(topic: "tictactoe/kitchen/state", payload: Array(line.utf8)) == HeardReport(board: "kitchen", online: true, game: nil), "\(line.prefix(80))")
        }
    }

    @Test("two boards told to play the same mark, or a board told to play itself: said once, for the log, and no game")
    func trouble() throws {
        var follower = OtherBoardFollower(me: "attic")
        // The attic invited the kitchen (kitchen plays O), and the kitchen invited the attic too.
        _ = follower.boardShows(try state(pairedLine(other: "kitchen", mark: "O", game: 1)))
        _ = follower.heard(topic: "tictactoe/kitchen/presence", payload: Array("online".utf8))
        let report = follower.heard(topic: "tictactoe/kitchen/state", payload: Array(pairedLine(other: "attic", mark: "O", game: 1).utf8))
        #expect(report == nil, "no game: the board still waits")
        #expect(follower.takeTrouble()?.contains("the same mark, X") == true)
        #expect(follower.takeTrouble() == nil, "said once")
        var alone = OtherBoardFollower(me: "attic")
        _ = alone.boardShows(try state(pairedLine(other: "attic")))
        #expect(alone.takeTrouble()?.contains("play itself") == true)
    }

    @Test("a flood of the followed board's changes: ten reports a second reach the board, the latest held and sent when the second is over, a line in the log")
    func flood() throws {
        var relay = BrokerRelay(board: "attic", playing: false)
        _ = relay.boardConnected()
        _ = relay.brokerConnected(true)
        _ = relay.boardSent(pairedLine(other: "kitchen", mark: "X", game: 0, here: false))
        _ = relay.boardSent(#"{"command":"heard","text":"Nothing new.","type":"ok"}"#)
        _ = relay.brokerSent(topic: "tictactoe/kitchen/presence", payload: Array("online".utf8), correlation: nil, at: start)
        var told = 0, logged = 0
        for number in 1...100 {
            let actions = relay.brokerSent(
                topic: "tictactoe/kitchen/state", payload: Array(pairedLine(other: "attic", game: number).utf8), correlation: nil, at: start)
            told += toBoard(actions).count
            logged += actions.filter { if case .log = $0 { true } else { false } }.count
            // The board answers each report at once.
            for _ in toBoard(actions) { _ = relay.boardSent(#"{"command":"heard","text":"Nothing new.","type":"ok"}"#) }
        }
        #expect(told == 9, "the presence's report and nine of the states in the one second (the boards online apart: a list a second, the first at the presence)")
        #expect(logged == 1, "the drops said once in ten seconds")
        #expect(relay.deadline == start + .seconds(1))
        #expect(relay.tick(at: start + .milliseconds(999)).isEmpty)
        let held = toBoard(relay.tick(at: start + .seconds(1)))
        #expect(held.count == 2 && held.first?.contains(#""number":100"#) == true && held.last?.contains(#""invites":true"#) == true,
                "the latest of each: the game, then the boards online (the kitchen now invites): \(held)")
        #expect(relay.deadline == nil && relay.tick(at: start + .seconds(2)).isEmpty)
    }

    @Test("through the relay: subscribed with the retained messages, reports to the board as heard commands, their answers not published")
    func relay() throws {
        var relay = BrokerRelay(board: "attic", playing: false)
        _ = relay.boardConnected()
        _ = relay.brokerConnected(true)
        let shown = relay.boardSent(pairedLine(other: "kitchen", mark: "X", game: 0, here: false))
        #expect(shown.contains(.subscribe("tictactoe/kitchen/state", retained: true)) && shown.contains(.subscribe("tictactoe/kitchen/presence", retained: true)))
        #expect(toBoard(shown) == [#"{"board":"kitchen","command":"heard","game":null,"online":false}"#])
        #expect(relay.boardSent(#"{"command":"heard","text":"Nothing new.","type":"ok"}"#).isEmpty, "the link's own answer is not published")
        _ = relay.brokerSent(topic: "tictactoe/kitchen/presence", payload: Array("online".utf8), correlation: nil, retained: true, at: start)
        let heard = relay.brokerSent(
            topic: "tictactoe/kitchen/state", payload: Array(pairedLine(other: "attic", game: 1, moves: [5]).utf8), correlation: nil, retained: true, at: start)
        #expect(toBoard(heard) == [#"{"board":"kitchen","command":"heard","game":{"mark":"X","moves":[5],"number":1},"online":true}"#],
                "the game (the boards online, a list a second, the kitchen's invitation held)")
        #expect(toBoard(relay.tick(at: start + .seconds(1))) == [#"{"boards":[{"board":"kitchen","invites":true}],"command":"seen"}"#])
        let reconnected = relay.brokerConnected(true)
        #expect(reconnected.contains(.subscribe("tictactoe/kitchen/state", retained: true)), "again at each connection")
        #expect(toBoard(relay.brokerLost("the broker went away")) == [
            #"{"board":"kitchen","command":"heard","game":null,"online":false}"#, #"{"boards":[],"command":"seen"}"#,
        ])
        // The board restarted: the next state brings the report again.
        _ = relay.boardLost("closed")
        _ = relay.boardConnected()
        #expect(toBoard(relay.boardSent(pairedLine(other: "kitchen", mark: "X", game: 1, here: false, moves: [5]))).count == 1)
    }
}
