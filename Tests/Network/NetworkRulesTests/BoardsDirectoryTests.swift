import BoardProtocol
import Foundation
@testable import NetworkRules
import Testing

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A state line with a score for its pairing.
private func scoredLine(_ marks: String, turn: String? = "X", outcome: String = "playing", x: Int, o: Int, draws: Int) -> String {
    stateLine(marks, turn: turn, outcome: outcome).replacingOccurrences(
        of: #""scores":{}"#, with: #""scores":{"two-players":{"draws":\#(draws),"oWins":\#(o),"xWins":\#(x)}}"#)
}

@Suite("Every board on a broker, as tictactoe boards lists them")
struct BoardsDirectoryTests {
    @Test("boards by name with their presence, marks, what they say, pairing and score; letters, never colour")
    func lists() {
        var boards = BoardsDirectory()
        let changed1 = boards.take(topic: "tictactoe/kitchen/state", payload: bytes(scoredLine("X O  X   ", turn: "O", x: 2, o: 1, draws: 0)))
        #expect(changed1)
        let changed2 = boards.take(topic: "tictactoe/kitchen/presence", payload: bytes("online"))
        #expect(changed2)
        let changed3 = boards.take(topic: "tictactoe/grandma/presence", payload: bytes("offline"))
        #expect(changed3)
        let changed4 = boards.take(topic: "tictactoe/grandma/state", payload: bytes(stateLine("XXXOO    ", turn: nil, outcome: "x-wins")))
        #expect(changed4)
        let changed5 = boards.take(topic: "tictactoe/attic/presence", payload: bytes("online"))
        #expect(changed5)
        #expect(boards.lines(broker: "localhost:1883") == [
            "3 boards on localhost:1883: 2 online, 1 offline",
            "attic    online   (no state yet)",
            "grandma  offline  XXX OO· ···  X won      two-players",
            "kitchen  online   X·O ··X ···  O to move  two-players  X 2 · O 1 · draws 0",
        ])
    }

    @Test("a message that says nothing new changes nothing; a cleared retained message forgets its part, then the board")
    func changesAndClears() {
        var boards = BoardsDirectory()
        _ = boards.take(topic: "tictactoe/kitchen/presence", payload: bytes("online"))
        _ = boards.take(topic: "tictactoe/kitchen/state", payload: bytes(stateLine()))
        let changed6 = boards.take(topic: "tictactoe/kitchen/presence", payload: bytes("online"))
        #expect(!changed6)
        let changed7 = boards.take(topic: "tictactoe/kitchen/state", payload: bytes(stateLine()))
        #expect(!changed7)
        let changed8 = boards.take(topic: "tictactoe/kitchen/state", payload: [])
        #expect(changed8)
        #expect(boards.entries["kitchen"] == BoardsDirectory.Entry(online: true, state: nil))
        let changed9 = boards.take(topic: "tictactoe/kitchen/presence", payload: [])
        #expect(changed9)
        #expect(boards.entries.isEmpty && boards.ignored == 0)
    }

    @Test("what is not a board's state or presence is counted and ignored, and nothing from it is shown", arguments: [
        ("tictactoe/Kitchen/state", stateLine()),                     // not a board's name
        ("tictactoe/\u{1b}[2J/presence", "online"),                   // an escape sequence for a name
        ("tictactoe/kitchen/state/extra", stateLine()),
        ("tictactoe/kitchen/events", #"{"type":"move"}"#),
        ("homeassistant/kitchen/state", stateLine()),
        ("tictactoe/kitchen/presence", "online\u{1b}[31m"),
        ("tictactoe/kitchen/state", "not json"),
        ("tictactoe/kitchen/state", #"{"type":"state"}"#),
        ("tictactoe/kitchen/state", stateLine("X        ").replacingOccurrences(of: #""cells":["X""#, with: #""cells":["\u001b[2J""#)),
        ("tictactoe/kitchen/state", stateLine("XX       ").replacingOccurrences(of: ",\"\"]", with: "]")),      // eight cells
        ("tictactoe/kitchen/state", stateLine(outcome: "x-wins\u{7}")),
        ("tictactoe/kitchen/state", stateLine(turn: "Z")),
        ("tictactoe/kitchen/state", stateLine(turn: nil)),                                  // playing, nobody to move
        ("tictactoe/kitchen/state", stateLine("XXX OO   ", turn: "O", outcome: "x-wins")),   // over, someone to move
        ("tictactoe/kitchen/state", stateLine("XXXXXXXXX", turn: nil, outcome: "o-wins")),  // marks no game places
        ("tictactoe/kitchen/state", stateLine(opponent: "\u{1b}]0;owned\u{7}")),
        ("tictactoe/kitchen/state", stateLine().replacingOccurrences(of: #""type":"state""#, with: #""type":"status""#)),
    ])
    func ignoresForeign(topic: String, payload: String) {
        var boards = BoardsDirectory()
        let changed10 = boards.take(topic: topic, payload: bytes(payload))
        #expect(!changed10)
        #expect(boards.entries.isEmpty && boards.ignored == 1)
        #expect(boards.lines(broker: "b:1") == ["0 boards on b:1: 0 online, 0 offline; 1 message ignored (not a board's state or presence)"])
    }

    @Test("a board heard without a presence is counted as unknown; messages the client dropped are said, with what it means")
    func unknownAndLost() {
        var boards = BoardsDirectory()
        let changed = boards.take(topic: "tictactoe/attic/state", payload: bytes(stateLine()))
        #expect(changed)
        boards.lose(3)
        #expect(boards.lines(broker: "b:1").first == "1 board on b:1: 0 online, 0 offline, 1 unknown; 3 messages lost for want of room: the list may be out of date")
    }

    @Test("a negative score is not shown")
    func negativeScore() {
        var boards = BoardsDirectory()
        _ = boards.take(topic: "tictactoe/kitchen/state", payload: bytes(scoredLine("         ", x: -1, o: 0, draws: 0)))
        #expect(boards.entries["kitchen"]?.state?.score == nil)
    }

    @Test("at most 1024 boards are kept; messages about the others are counted, and the known ones still change")
    func bounded() {
        var boards = BoardsDirectory()
        for index in 0..<BoardsDirectory.largest { _ = boards.take(topic: "tictactoe/b\(index)/presence", payload: bytes("online")) }
        let changed11 = boards.take(topic: "tictactoe/one-more/presence", payload: bytes("online"))
        #expect(!changed11)
        #expect(boards.entries.count == BoardsDirectory.largest && boards.beyondLimit == 1)
        let changed12 = boards.take(topic: "tictactoe/b7/presence", payload: bytes("offline"))
        #expect(changed12)
        #expect(boards.lines(broker: "b:1").first == "1024 boards on b:1: 1023 online, 1 offline; more than 1024: 1 message about the others not shown")
    }

    @Test("the boards view's list: every board by name with what was heard of it, read back as the web view reads it; a change counted only when the list or its counts changed")
    func boardsViewList() throws {
        var inView = BoardsInView(me: "attic")
        _ = inView.take(topic: "tictactoe/kitchen/state", payload: bytes(scoredLine("X O  X   ", turn: "O", x: 2, o: 1, draws: 0)))
        _ = inView.take(topic: "tictactoe/kitchen/presence", payload: bytes("online"))
        _ = inView.take(topic: "tictactoe/attic/presence", payload: bytes("offline"))
        #expect(inView.changes == 3)
        // The same state again: nothing to write again. A refused message: its count, which the
        // view says, changed.
        _ = inView.take(topic: "tictactoe/kitchen/presence", payload: bytes("online"))
        #expect(inView.changes == 3)
        _ = inView.take(topic: "tictactoe/kitchen/state", payload: bytes("not a state"))
        _ = inView.take(topic: "tictactoe/kitchen/state", payload: bytes(#"{"type":"state"}"#))
        #expect(inView.changes == 5)
        let list = inView.directory.list(broker: "broker.home:8883", connected: true)
        #expect(list.boards.map(\.name) == ["attic", "kitchen"])
        #expect(list.boards[0] == BoardsList.Board(name: "attic", online: false))
        #expect(list.boards[1].cells == ["X", "", "O", "", "", "X", "", "", ""] && list.boards[1].turn == "O" && list.boards[1].outcome == "playing")
        #expect(list.boards[1].opponent == "two-players" && list.boards[1].score == ViewState.Tally(xWins: 2, oWins: 1, draws: 0))
        #expect(list.ignored == 2 && list.lost == 0 && list.connected)
        #expect(try BoardsList.read(Array((JSONLine.encode(list) ?? "").utf8)) == list)
        // Messages lost, and the broker lost: each a change the view shows.
        inView.lose(3)
        #expect(inView.changes == 6 && inView.directory.list(broker: "b", connected: true).lost == 3)
        _ = inView.brokerLost()
        #expect(inView.changes == 7 && inView.directory.list(broker: "b", connected: false).boards.isEmpty)
    }
}
