import Basics
import Dispatch
import Foundation
import Testing
import TestSupport

/// Two boards in two houses: two `simulate --serve` boards, each with its `tictactoe-network`
/// link, on one mosquitto (passwords, the committed access list), playing one game, driven
/// through their own sockets as a person at each would.
final class TwoBoards: @unchecked Sendable {
    let broker: Broker
    /// The attic's broker when the two are bridged (the attic's link connects there), else nil.
    let atticBroker: Broker?
    let kitchen: ServedSimulation
    var attic: ServedSimulation
    let kitchenLink: ServedNetwork
    var atticLink: ServedNetwork

    private let ended = Protected(false)

    /// The kitchen invites the attic (the kitchen plays X), the attic is told and joins; both have
    /// heard the other when this returns. A line a test waits for that never comes must fail it, not hang
    /// it: after `patience` the boards are stopped, which ends their logs.
    /// With `bridged`, the attic's link is on a second broker, which bridges the attic's state and
    /// presence to the kitchen's broker, and the kitchen's back.
    init(tls: Bool = false, bridged: Bool = false, patience: Double = 240) throws {
        broker = try Broker(boards: ["cellar"], bridgeWrites: bridged ? ["attic"] : [])
        atticBroker = bridged ? try Broker(bridge: (to: broker, outgoing: ["attic"], incoming: ["kitchen"])) : nil
        kitchen = try ServedSimulation()
        attic = try ServedSimulation()
        kitchenLink = try ServedNetwork(board: kitchen, broker: broker, tls: tls)
        atticLink = try ServedNetwork(board: attic, broker: atticBroker ?? broker, name: "attic", tls: tls)
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) { [weak self, ended] in
            guard !ended.value else { return }
            self?.stop()
        }
        _ = try kitchenLink.log(until: "connected to the broker")
        _ = try atticLink.log(until: "connected to the broker")
        #expect(try kitchen.run(["opponent", "board:attic"]).status == 0)
        // The invitation reaches the attic through its own link: told, listed in its state and status.
        _ = try attic.log(until: "The board kitchen invites this board to a game")
        let seen = try Self.state(of: attic)["boardsSeen"] as? [[String: Any]] ?? []
        #expect(seen.contains { $0["board"] as? String == "kitchen" && $0["invites"] as? Bool == true }, "\(seen)")
        let status = try attic.run(["status"]).out
        #expect(status.contains("other boards online: kitchen (invites this board: tictactoe opponent board:kitchen:x joins)"), "\(status)")
        #expect(try attic.run(["opponent", "board:kitchen:x"]).status == 0)
        // The attic starts the kitchen's game as it hears it; the kitchen hears the attic in it.
        _ = try attic.log(until: "New game: Board kitchen (X) starts.")
        _ = try kitchen.log(until: "The board attic is here.")
    }

    func stop() {
        ended.withValue { $0 = true }
        kitchenLink.stop()
        atticLink.stop()
        kitchen.stop()
        attic.stop()
    }

    /// `board`'s state, from its own status.
    static func state(of board: ServedSimulation) throws -> [String: Any] {
        let status = try board.run(["status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
        return object?["state"] as? [String: Any] ?? [:]
    }

    static func cells(of board: ServedSimulation) throws -> [String] { try state(of: board)["cells"] as? [String] ?? [] }

    /// `cell` pressed on `board`, whose turn it is; the other board has taken the move when this
    /// returns (its log says so).
    func move(_ cell: Int, on board: ServedSimulation, seenBy other: ServedSimulation, mark: String) throws {
        let pressed = try board.run(["press", "\(cell)"])
        #expect(pressed.status == 0, "\(pressed.err)")
        _ = try other.log(until: "(\(mark)) took cell \(cell).")
    }
}

@Suite("Two boards, one game, through a real broker (mosquitto)", .serialized, .process)
struct TwoBoardsTests {
    @Test("over TLS: invited and joined, a whole game played a move on each board, the same game shown on both, scored for the pairing on each")
    func wholeGame() throws {
        let boards = try TwoBoards(tls: true)
        defer { boards.stop() }
        let (kitchen, attic) = (boards.kitchen, boards.attic)
        for board in [kitchen, attic] {
            let other = try TwoBoards.state(of: board)["otherBoard"] as? [String: Any]
            #expect(other?["here"] as? Bool == true && other?["game"] as? Int == 1, "\(other ?? [:])")
        }
        // Not the attic's turn: refused, as the computer's turn is.
        let early = try attic.run(["press", "5"])
        #expect(early.status != 0 && early.err.contains("it is the board kitchen's turn (X)"), "\(early.err)")
        for (index, cell) in [7, 4, 8, 5, 9].enumerated() {
            let xMoves = index.isMultiple(of: 2)
            try boards.move(cell, on: xMoves ? kitchen : attic, seenBy: xMoves ? attic : kitchen, mark: xMoves ? "X" : "O")
        }
        let shown = try TwoBoards.state(of: attic)
        #expect(shown["outcome"] as? String == "x-wins")
        #expect(try TwoBoards.cells(of: kitchen) == ["X", "X", "X", "O", "O", "", "", "", ""])
        #expect(try TwoBoards.cells(of: attic) == ["X", "X", "X", "O", "O", "", "", "", ""])
        let kitchenScores = try TwoBoards.state(of: kitchen)["scores"] as? [String: [String: Int]]
        #expect(kitchenScores?["board:attic"]?["xWins"] == 1)
        #expect((shown["scores"] as? [String: [String: Int]])?["board:kitchen:x"]?["xWins"] == 1)
        // The next game, started on the attic (O's turn to start it), is the kitchen's too.
        #expect(try attic.run(["new-game"]).status == 0)
        _ = try kitchen.log(until: "New game: Board attic (O) starts.")
        try boards.move(5, on: attic, seenBy: kitchen, mark: "O")
        #expect(try TwoBoards.cells(of: kitchen) == ["", "", "", "", "O", "", "", "", ""])
    }

    @Test("on two bridged brokers (the attic's carrying its board's state and presence to the kitchen's, and the kitchen's back): a whole game")
    func bridged() throws {
        let boards = try TwoBoards(bridged: true)
        defer { boards.stop() }
        let (kitchen, attic) = (boards.kitchen, boards.attic)
        for (index, cell) in [5, 1, 9, 3, 2, 7, 8].enumerated() {
            let xMoves = index.isMultiple(of: 2)
            try boards.move(cell, on: xMoves ? kitchen : attic, seenBy: xMoves ? attic : kitchen, mark: xMoves ? "X" : "O")
        }
        #expect(try TwoBoards.cells(of: kitchen) == ["O", "X", "X", "", "X", "", "O", "X", "O"])
        #expect(try TwoBoards.cells(of: attic) == ["O", "X", "X", "", "X", "", "O", "X", "O"])
        #expect(try TwoBoards.state(of: attic)["outcome"] as? String == "x-wins")
    }

    @Test("the broker killed mid-game: both boards wait for the other, a press refused; started again: the game goes on where it was")
    func brokerKilled() throws {
        let boards = try TwoBoards()
        defer { boards.stop() }
        let (kitchen, attic) = (boards.kitchen, boards.attic)
        try boards.move(5, on: kitchen, seenBy: attic, mark: "X")
        boards.broker.kill()
        _ = try kitchen.log(until: "The board attic is not heard: waiting for it.")
        _ = try attic.log(until: "The board kitchen is not heard: waiting for it.")
        #expect(TwoBoards.stateHeadline(kitchen) == "waiting-for-o" && TwoBoards.stateHeadline(attic) == "waiting-for-x")
        let refused = try attic.run(["press", "1"])
        #expect(refused.status != 0 && refused.err.contains("waits for the board kitchen (X)"), "\(refused.err)")
        try boards.broker.start()
        _ = try kitchen.log(until: "The board attic is here.")
        _ = try attic.log(until: "The board kitchen is here.")
        try boards.move(1, on: attic, seenBy: kitchen, mark: "O")
        #expect(try TwoBoards.cells(of: kitchen) == ["", "", "", "", "X", "", "O", "", ""])
    }

    @Test("one board restarted mid-game: the other waits; back with its saved game (the other board's, the pairing's game), the game goes on")
    func boardRestarted() throws {
        let boards = try TwoBoards()
        defer { boards.stop() }
        let kitchen = boards.kitchen
        try boards.move(5, on: kitchen, seenBy: boards.attic, mark: "X")
        try boards.move(1, on: boards.attic, seenBy: kitchen, mark: "O")
        let socket = boards.attic.socket
        boards.attic.stop(keepingFolder: true)
        _ = try kitchen.log(until: "The board attic is not heard: waiting for it.")
        boards.attic = try ServedSimulation(socket: socket, restarting: boards.attic)
        _ = try kitchen.log(until: "The board attic is here.")
        let restored = try TwoBoards.state(of: boards.attic)
        #expect(restored["opponent"] as? String == "board:kitchen:x")
        #expect(try TwoBoards.cells(of: boards.attic) == ["", "", "", "", "X", "", "O", "", ""])
        #expect((restored["otherBoard"] as? [String: Any])?["game"] as? Int == 1)
        try boards.move(9, on: kitchen, seenBy: boards.attic, mark: "X")
    }

    @Test("a board's own link stopped: that board waits too (its word of the other board is gone, and of the boards online), and goes on when a link is back")
    func linkStopped() throws {
        let boards = try TwoBoards()
        defer { boards.stop() }
        let (kitchen, attic) = (boards.kitchen, boards.attic)
        try boards.move(5, on: kitchen, seenBy: attic, mark: "X")
        boards.atticLink.stop()
        _ = try attic.log(until: "The board kitchen is not heard: waiting for it.")
        _ = try kitchen.log(until: "The board attic is not heard: waiting for it.")
        #expect(TwoBoards.stateHeadline(attic) == "waiting-for-x")
        #expect((try TwoBoards.state(of: attic)["boardsSeen"] as? [Any])?.isEmpty == true, "no link: no board seen")
        boards.atticLink = try ServedNetwork(board: attic, broker: boards.broker, name: "attic", tls: false)
        _ = try attic.log(until: "The board kitchen is here.")
        try boards.move(1, on: attic, seenBy: kitchen, mark: "O")
    }

    @Test("late and repeated states as the board's own user, a move written as that board by another user (the access list refuses it) and a third board's invitation change nothing")
    func forged() throws {
        let boards = try TwoBoards()
        defer { boards.stop() }
        let (kitchen, attic) = (boards.kitchen, boards.attic)
        let watcher = try boards.broker.subscribe("tictactoe/kitchen/state")
        try boards.move(5, on: kitchen, seenBy: attic, mark: "X")
        let early = try #require(watcher.next("state", containing: #""moves":[5]"#))
        try boards.move(1, on: attic, seenBy: kitchen, mark: "O")
        let latest = try #require(watcher.next("state", containing: #""moves":[5,1]"#))
        let payload = { (line: String) in String(line.split(separator: " ", maxSplits: 1).last ?? "") }
        // Late and repeated, as the kitchen's own user (a replay of what it sent).
        try boards.broker.publish("tictactoe/kitchen/state", payload(early), as: "kitchen", retain: true)
        try boards.broker.publish("tictactoe/kitchen/state", payload(latest), as: "kitchen", retain: true)
        // X's next move, written as the kitchen by another user: refused by the access list (the
        // attic would have taken it, and then refused the kitchen's real move below).
        try boards.broker.publish("tictactoe/kitchen/state", payload(latest).replacingOccurrences(of: #""moves":[5,1]"#, with: #""moves":[5,1,3]"#), as: "cellar", retain: true)
        // A third board invites the attic, which plays the kitchen: its state is not read.
        try boards.broker.publish("tictactoe/cellar/state", payload(latest).replacingOccurrences(of: #""moves":[5,1]"#, with: #""moves":[5,1,3]"#), as: "cellar", retain: true)
        try boards.broker.publish("tictactoe/kitchen/state", payload(latest), as: "kitchen", retain: true)
        // The kitchen's real move comes after all of them, through the same broker: the attic
        // takes it, and holds nothing else.
        try boards.move(9, on: kitchen, seenBy: attic, mark: "X")
        #expect(try TwoBoards.cells(of: attic) == ["", "", "X", "", "X", "", "O", "", ""])
        #expect(try TwoBoards.cells(of: kitchen) == ["", "", "X", "", "X", "", "O", "", ""])
    }
}

extension TwoBoards {
    /// `board`'s headline, or "" when its status cannot be read.
    static func stateHeadline(_ board: ServedSimulation) -> String {
        ((try? state(of: board))?["headline"] as? String) ?? ""
    }
}
