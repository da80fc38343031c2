@testable import BoardAPI
import Basics
import BoardProtocol
import Dispatch
import Foundation
import Lights
import ViewModel
import Reactive
import TestSupport
import Testing
import TicTacToe

@Suite("The board's API, served in process on the simulated board")
struct ServerTests {
    @Test("hello, then the view state; each command gets its reply after its one state message, which matches what the LEDs were given")
    func helloStateAndOneMessagePerInput() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let client = try served.connect()
        let greeting = try client.greeting()
        #expect(greeting.map(\.type) == [.hello, .state])
        #expect(greeting.first?.protocol == APIMessage.protocolVersion)
        #expect(greeting.first?.program == "tictactoe test")
        #expect(greeting.first?.chip == APIMessage.ChipName(name: "gpiochip-sim", label: "tictactoe-sim"))
        #expect(greeting.last?.state == served.views.last)

        // A press: exactly one state message, then the reply.
        try client.send(.press(Position(keypadKey: 5)!))
        let afterPress = [try client.next(timeout: .seconds(20)), try client.next(timeout: .seconds(20))]
        #expect(afterPress.map { $0?.type } == [.state, .ok])
        #expect(afterPress[0]?.state?.cells == ["", "", "", "", "X", "", "", "", ""])
        #expect(afterPress[0]?.state?.turn == "O")
        #expect(afterPress[1]?.text == "X took cell 5.")

        // A refused press: one state (the amber cell), and an error naming why.
        try client.send(.press(Position(keypadKey: 5)!))
        let refused = [try client.next(timeout: .seconds(20)), try client.next(timeout: .seconds(20))]
        #expect(refused.map { $0?.type } == [.state, .error])
        #expect(refused[0]?.state?.flashing == 5)
        #expect(refused[1]?.text == "cell 5 is taken by X: press a free cell.")
        // What the clients saw is what the loop took, and the LEDs were given its frame.
        for (view, frame) in served.shown.value {
            guard var session = view.session else {
                Issue.record("\(view) is not a board")
                continue
            }
            session.blinkOn = true
            #expect(FrameRenderer.frame(of: session, marks: served.board.settings.marks) == frame)
        }
        #expect(served.views.count == 3)
        #expect(served.state.board[Position(keypadKey: 5)!] == .x)
        #expect(served.board.viewModel.frame.value.cells[Position(keypadKey: 5)!.index] == .amber)
    }

    @Test("100 watchers through a 1,000-move game each see the same states, in order, each once: the ones the loop took", .soak)
    func hundredWatchers() throws {
        // The service takes 32 clients; the server's mechanics are the same for more.
        let served = try ServedBoard(limits: .init(clients: 101))
        defer { served.stop() }
        let watchers = try (0..<100).map { _ in try served.connect() }
        for watcher in watchers { _ = try watcher.greeting() }
        let driver = try served.greetedClient()
        let initial = served.views.count

        // Each watcher keeps the lines it read, undecoded: every state is sent to every client as
        // the same bytes, so the watchers' lines are compared as bytes, and one watcher's are
        // decoded (decoding 100 copies of each state was most of this test's time).
        let seen = Protected<[[[UInt8]]]>(Array(repeating: [], count: watchers.count))
        // A thread each (Dispatch's pool has fewer threads than there are watchers).
        let readers = DispatchGroup()
        for (index, watcher) in watchers.enumerated() {
            let box = UncheckedBox(watcher)
            readers.enter()
            Thread {
                while let line = box.value.nextLine(timeout: .seconds(60)) {
                    seen.withValue { $0[index].append(line) }
                }
                box.value.close()
                readers.leave()
            }.start()
        }
        var player = RandomPlayer(random: SeededRandom(seed: 2026))
        var moves = 0
        var replies: [String] = []
        while moves < 1000 {
            let board = served.state.board
            let request: APIRequest = board.isOver ? .newGame : .press(player.cell(for: board))
            let reply = try driver.ask(request, timeout: .seconds(20))
            #expect(reply.type == .ok, "\(request): \(reply.text ?? "")")
            replies.append(reply.text ?? "")
            if case .press = request { moves += 1 }
            // Every 20 inputs, until every watcher has all the states so far: a socket's buffer
            // holds far more, so no watcher ever falls a state behind.
            if replies.count % 20 == 0 {
                let expected = served.views.count - initial
                try waitUntil(seen, reach: expected)
            }
        }
        let expected = Array(served.views.dropFirst(initial))
        try waitUntil(seen, reach: expected.count)
        served.server.stop()
        readers.wait()
        #expect(expected.count == replies.count, "one state per accepted input")
        let lines = seen.value
        let decoder = JSONDecoder()
        let messages = try lines[0].map { try decoder.decode(APIMessage.self, from: Data($0)) }
        // States, and a goodbye if the server said one as it stopped.
        let states = messages.last?.type == .bye ? messages.dropLast() : messages[...]
        #expect(states.allSatisfy { $0.type == .state }, "a watcher is sent states and nothing else")
        #expect(states.compactMap(\.state) == expected, "watcher 0")
        for (index, watcher) in lines.enumerated().dropFirst() {
            #expect(watcher == lines[0], "watcher \(index) read other lines than watcher 0")
        }
    }
}

/// Waits until every watcher has read `target` lines; fails after a minute instead of hanging
/// (the watchers are threads that read as fast as they can: this only lets them catch up).
func waitUntil(_ seen: Protected<[[[UInt8]]]>, reach target: Int) throws {
    let deadline = MonotonicInstant.now() + .seconds(60)
    while true {
        let fewest = seen.withValue { $0.lazy.map(\.count).min() ?? target }
        guard fewest < target else { return }
        guard MonotonicInstant.now() < deadline else { throw WatcherBehind(count: fewest, target: target) }
        sched_yield()
    }
}

struct WatcherBehind: Error {
    let count: Int
    let target: Int
}

/// Hands a non-Sendable connection to the one thread that reads it.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

@Suite("The board's API against clients that misbehave")
struct HostileClientTests {
    /// Plays `moves` random legal presses (new game whenever one ends) through `driver`.
    static func play(_ moves: Int, on served: ServedBoard, through driver: BoardConnection, seed: UInt64) throws {
        var player = RandomPlayer(random: SeededRandom(seed: seed))
        var played = 0
        while played < moves {
            let board = served.state.board
            let request: APIRequest = board.isOver ? .newGame : .press(player.cell(for: board))
            let reply = try driver.ask(request, timeout: .seconds(20))
            guard reply.type == .ok else {
                Issue.record("\(request) refused: \(reply.text ?? "")")
                return
            }
            if case .press = request { played += 1 }
        }
    }

    @Test("a client that never reads, through 10,000 moves: its outbox stays at one state, the game goes on", .soak)
    func neverReads() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let sleeper = try served.connect()
        let driver = try served.greetedClient()
        let stateSize = try JSONEncoder().encode(APIMessage.state(ViewState(served.state, players: PlayerNames(), marks: .standard))).count + 200
        var largest = 0
        for round in 0..<10 {
            try Self.play(1000, on: served, through: driver, seed: UInt64(round))
            largest = max(largest, served.server.census.largestOutbox)
        }
        #expect(largest > 0, "the socket's buffer filled and the outbox was used")
        #expect(largest <= stateSize, "at most one state waits: \(largest) bytes")
        #expect(served.server.census.clients == 2)
        _ = sleeper
    }

    @Test("a client that pipelines 10,000 requests and reads is answered every one, in order, and never closed", .soak)
    func pipelining() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let client = try served.greetedClient()
        let requests = Array(repeating: Array((APIRequest.status.line + "\n").utf8), count: 10_000).flatMap { $0 }
        // Sent from a thread of its own: the board reads a client only as fast as it reads.
        let sent = DispatchSemaphore(value: 0)
        // Sending and reading one socket from two threads is what BoardConnection allows.
        nonisolated(unsafe) let writer = client
        Thread.detachNewThread {
            try? writer.send(bytes: requests)
            sent.signal()
        }
        var kinds: [APIMessage.Kind: Int] = [:]
        while kinds[.status, default: 0] < 10_000, let message = try client.next(timeout: .seconds(20)) {
            kinds[message.type, default: 0] += 1
        }
        #expect(kinds == [.status: 10_000])
        #expect(sent.wait(timeout: .now() + 20) == .success)
        #expect(served.server.census.clients == 1)
    }

    @Test("a client that asks for the 100-game history as fast as it can and never reads is not read: the server holds at most its outbox's bound, and serves the others meanwhile")
    func historyFlood() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let driver = try served.greetedClient()
        try Self.play(1200, on: served, through: driver, seed: 11)
        #expect(served.history.games.count == HistoryQuery.largestLimit)
        let historySize = try JSONEncoder().encode(APIMessage.history(served.history.games)).count + 1
        let flooder = try served.greetedClient()
        // More than the socket's buffers hold: the board must stop reading it.
        let requests = Array(repeating: Array((APIRequest.history(.all).line + "\n").utf8), count: 20_000).flatMap { $0 }
        nonisolated(unsafe) let writer = flooder
        Thread.detachNewThread {
            // Blocks once the board stops reading it, until the board closes it at the end.
            try? writer.send(bytes: requests)
        }
        for round in 0..<50 {
            let reply = try driver.ask(round.isMultiple(of: 2) ? .status : .history(.all), timeout: .seconds(20))
            #expect(reply.type == (round.isMultiple(of: 2) ? .status : .history))
        }
        let census = served.server.census
        #expect(census.clients == 2, "the flooder is held back, not closed")
        #expect(census.largestOutbox > 0)
        #expect(census.largestOutbox <= Outbox.byteLimit + 2 * historySize + 1024, "\(census.largestOutbox) bytes wait")
    }

    @Test("a client that shuts its sending side after its lines gets every reply, a press's included, then the connection closes")
    func halfClose() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let client = try served.greetedClient()
        try client.send(bytes: Array((APIRequest.status.line + "\n" + APIRequest.press(Position(keypadKey: 5)!).line + "\n" + APIRequest.history(.all).line + "\n{\"comm").utf8))
        client.finishSending()
        var kinds: [APIMessage.Kind] = []
        while let message = try client.next(timeout: .seconds(20)) { kinds.append(message.type) }
        #expect(kinds.filter { $0 != .state } == [.status, .ok, .history])
        #expect(served.state.board[Position(keypadKey: 5)!] != nil)
    }

    @Test("a press in the computer's turn is refused with the reason, and the board flashes amber")
    func computersTurn() throws {
        let served = try ServedBoard(opponent: .computer(.perfect))
        defer { served.stop() }
        let client = try served.greetedClient()
        #expect(try client.ask(.press(Position(keypadKey: 5)!)).type == .ok)
        let refused = try client.ask(.press(Position(keypadKey: 1)!))
        #expect(refused.type == .error)
        #expect(refused.text == "it is the computer's turn: wait for its move.")
        #expect(served.state.board.moveCount == 1)
        #expect(served.board.viewModel.frame.value.cells[Position(keypadKey: 1)!.index] == .amber)
        #expect(served.views.last?.thinking == true)
    }

    @Test("an opponent the board does not know is refused with the names it knows, and the game is as it was")
    func unknownOpponent() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let client = try served.greetedClient()
        let before = served.state
        let refused = try client.ask(.opponent(name: "robot"))
        #expect(refused.type == .error)
        #expect(refused.command == "opponent")
        #expect(refused.text == #""opponent" is "robot"; give one of two-players, computer-1, computer-2, computer-3, computer-4, learner, board:NAME (another board, playing O) or board:NAME:x (playing X)"#)
        #expect(served.state == before)
    }

    @Test("bad lines of every class, random bytes, unfinished lines and 1,000 connections dropped at once leave the game as it was and the board serving")
    func garbageChangesNothing() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let driver = try served.greetedClient()
        try HostileClientTests.play(4, on: served, through: driver, seed: 9)
        let before = served.state

        let bad = try served.greetedClient()
        for (name, line, words) in RequestTests.badLines.prefix(10) {
            try bad.send(bytes: line + [UInt8(ascii: "\n")])
            let reply = try bad.next(timeout: .seconds(20))
            #expect(reply?.type == .error && reply?.text?.contains(words) == true, "\(name): \(String(describing: reply))")
        }
        // Each connection closes at the end of its turn, but the server counts it gone only on its
        // own next turn: one opened before may find it full and be turned away (told so and
        // closed), which makes a send fail. Most get through; all must leave the game alone.
        var random = SeededRandom(seed: 1)
        var delivered = 0
        for _ in 0..<50 {
            let length = Int(random.next() % 300)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes.removeAll { $0 == UInt8(ascii: "\n") }
            let garbage = try served.connect()
            if (try? garbage.send(bytes: bytes + [UInt8(ascii: "\n")] + bytes.prefix(length / 2))) != nil { delivered += 1 }
        }
        for index in 0..<1000 {
            let dropped = try served.connect()
            if index % 2 == 0, (try? dropped.send(bytes: Array(#"{"command":"press","ce"#.utf8))) != nil { delivered += 1 }
        }
        #expect(delivered > 0, "no garbage reached the board")
        // The well-behaved client still gets answers, and nothing changed the game.
        #expect(try driver.ask(.status).type == .status)
        #expect(served.state == before)
        let free = Position.all.first { before.board[$0] == nil && !before.board.isOver }
        if let free { #expect(try driver.ask(.press(free)).type == .ok) }
    }

    @Test("16 bad lines in a row close the connection with a bye; a good line in between starts the count again")
    func badLinesInARow() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let client = try served.greetedClient()
        for _ in 0..<15 { try client.send(line: "nonsense") }
        try client.send(.status)
        for _ in 0..<16 { try client.send(line: "nonsense") }
        var types: [APIMessage.Kind] = []
        while let message = try client.next(timeout: .seconds(20)) { types.append(message.type) }
        // Built step by step [6.0.3: type-check-steps]: as one sum of literals, Swift 6.0.3 takes 25 s to type-check it.
        var expected = [APIMessage.Kind](repeating: .error, count: 15)
        expected.append(.status)
        expected += [APIMessage.Kind](repeating: .error, count: 16)
        expected.append(.bye)
        #expect(types == expected)
    }

    @Test("the 33rd client is told the limit and closed; when one leaves, the next gets in")
    func clientLimit() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        var clients = try (0..<32).map { _ in try served.connect() }
        for client in clients { #expect(try client.greeting().count == 2) }
        let extra = try served.connect()
        let refusal = try extra.next(timeout: .seconds(20))
        #expect(refusal?.type == .bye)
        #expect(refusal?.text == "the board serves 32 clients already; try again when one leaves")
        #expect(try extra.next(timeout: .seconds(20)) == nil)
        clients.removeLast()
        // The server notices the departure on its own turn; a new client is let in after it.
        var admitted: [APIMessage] = []
        for _ in 0..<100 where admitted.count < 2 {
            admitted = try served.connect().greeting()
        }
        #expect(admitted.map(\.type) == [.hello, .state])
    }
}
