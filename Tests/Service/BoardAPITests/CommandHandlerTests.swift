@testable import BoardAPI
import BoardProtocol
import Basics
import Dispatch
import Foundation
import Reactive
import Testing
import TicTacToe

@Suite("What each command does")
struct CommandHandlerTests {
    static func handler(for served: ServedBoard) -> CommandHandler {
        let facts = BoardAPIServer.Facts(since: WallTime(seconds: 0), scanRate: 100, chip: .init(name: "chip", label: "label"))
        return CommandHandler(control: served.control, facts: facts, history: served.history, encoder: MessageEncoder())
    }

    static func line(_ answer: CommandHandler.Answer) -> [UInt8]? {
        if case .now(let line) = answer { return line }
        return nil
    }

    @Test("history is encoded once per change of the history: asked again, the same bytes are shared, not encoded again")
    func historyEncodedOncePerChange() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        var handler = Self.handler(for: served)
        let ignore: @Sendable (APIMessage) -> Void = { _ in }
        let first = try #require(Self.line(handler.answer(.history(.all), shown: nil, reply: ignore)))
        let again = try #require(Self.line(handler.answer(.history(.all), shown: nil, reply: ignore)))
        #expect(first.withUnsafeBufferPointer(\.baseAddress) == again.withUnsafeBufferPointer(\.baseAddress), "shared")
        try HostileClientTests.play(9, on: served, through: served.greetedClient(), seed: 3)
        #expect(served.history.games.count >= 1)
        let changed = try #require(Self.line(handler.answer(.history(.all), shown: nil, reply: ignore)))
        #expect(changed != first)
        let games = try JSONDecoder().decode(APIMessage.self, from: Data(changed.dropLast())).games
        #expect(games == served.history.games)
    }

    @Test("status is answered at once: an error before the board has shown a state, the health after")
    func status() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        var handler = Self.handler(for: served)
        let ignore: @Sendable (APIMessage) -> Void = { _ in }
        let early = try #require(Self.line(handler.answer(.status, shown: nil, reply: ignore)))
        let refusal = try JSONDecoder().decode(APIMessage.self, from: Data(early.dropLast()))
        #expect(refusal.type == .error && refusal.command == "status" && refusal.errorReason == .notReady)
        let view = try #require(served.views.last)
        let answer = try #require(Self.line(handler.answer(.status, shown: view, reply: ignore)))
        let status = try JSONDecoder().decode(APIMessage.self, from: Data(answer.dropLast()))
        #expect(status.type == .status && status.state == view && status.health?.scanRate == 100)
    }

    @Test("a press goes to the game loop, and its reply comes from there")
    func pressOnTheLoop() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        var handler = Self.handler(for: served)
        let five = try #require(Position(keypadKey: 5))
        let replies = Protected<[APIMessage]>([])
        let replied = DispatchSemaphore(value: 0)
        let answer = handler.answer(.press(five), shown: nil) { reply in
            replies.withValue { $0.append(reply) }
            replied.signal()
        }
        #expect(Self.line(answer) == nil, "not answered now")
        #expect(replied.wait(timeout: .now() + 20) == .success)
        #expect(replies.value.map(\.type) == [.ok])
        #expect(served.state.board[five] == .x)
    }
}
