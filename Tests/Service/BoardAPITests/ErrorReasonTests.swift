@testable import BoardAPI
import BoardProtocol
import Foundation
import Matchboxes
import Testing
import TicTacToe
import TestSupport
import ViewModel

/// Every refusal carries a stable reason (``ErrorReason``), which a page turns into its own words:
/// each reason the board sends is provoked here, on the wire, and docs/API.md lists every one.
@Suite("The reasons of the board's errors")
struct ErrorReasonTests {
    /// The reason of each of ``RequestTests/badLines``, by its name.
    static let badLineReasons: [String: ErrorReason] = [
        "not JSON": .notJSON, "not an object": .notACommand, "no command": .notACommand,
        "command of the wrong type": .notACommand, "unknown command": .unknownCommand,
        "press without a cell": .badArgument, "a cell of the wrong type": .badArgument, "a fractional cell": .badArgument,
        "a cell off the board": .badArgument, "invalid UTF-8": .notJSON, "a raw control character in a string": .notJSON,
        "over 4 KiB": .tooLong, "a bad escape in a key": .notJSON, "a short unicode escape": .notJSON,
    ]

    @Test("each class of bad line has its reason")
    func badLines() {
        #expect(Set(RequestTests.badLines.map { $0.0 }) == Set(Self.badLineReasons.keys))
        for (name, line, _) in RequestTests.badLines {
            guard case .failure(let error) = APIRequest.parse(line) else {
                Issue.record("\(name): accepted")
                continue
            }
            #expect(error.reason == Self.badLineReasons[name], "\(name): \(error.reason)")
        }
    }

    @Test("the game's refusals reach a client with their reasons: a taken cell, a game not over, a game over, an unknown opponent")
    func gameRefusals() throws {
        let served = try ServedBoard()
        defer { served.stop() }
        let client = try served.greetedClient()
        #expect(try client.ask(.press(Position(keypadKey: 5)!)).type == .ok)
        #expect(try client.ask(.press(Position(keypadKey: 5)!)).reason == "cell-taken")
        #expect(try client.ask(.newGame).reason == "game-not-over")
        #expect(try client.ask(.opponent(name: "robot")).reason == "unknown-opponent")
        // O, X, O, X: X has 5 and 4 then 6, the middle row.
        for cell in [1, 4, 2, 6] { #expect(try client.ask(.press(Position(keypadKey: cell)!)).type == .ok) }
        #expect(served.views.last?.outcome == "x-wins")
        let late = try client.ask(.press(Position(keypadKey: 9)!))
        #expect(late.reason == "game-over" && late.errorReason == .gameOver)
        try client.send(line: #"{"command":"fly"}"#)
        #expect(try client.next(timeout: .seconds(20))?.reason == "unknown-command")
    }

    @Test("a reset of the learner mid-game, or at a count of games it no longer has, says so by its reason; one between games is done")
    func learnerReset() throws {
        let served = try ServedBoard(opponent: .learner)
        defer { served.stop() }
        let client = try served.greetedClient()
        #expect(try client.ask(.resetLearner(games: 0)).type == .ok, "an empty board, X to move: no game under way")
        #expect(try client.ask(.resetLearner(games: 3)).reason == "learner-changed")
        #expect(try client.ask(.press(Position(keypadKey: 5)!)).type == .ok)
        let playing = try client.ask(.resetLearner(games: nil))
        #expect(playing.reason == "learner-playing" && playing.errorReason == .learnerPlaying)
    }

    @Test("a reset names its learner by games and resets: one asked about the learner before a reset is refused at the same count of games; status carries both and the beads' digest")
    func learnerResetAskedAboutAnother() throws {
        let served = try ServedBoard(opponent: .learner, thinking: .zero)
        defer { served.stop() }
        let client = try served.greetedClient()
        func learner() throws -> ViewState.Learner? { try client.ask(.status).state?.learner }
        let first = try #require(try learner())
        #expect(first.games == 0 && first.resets == 0 && first.digest == MatchboxLearner().digest)
        // A game against it: X takes the first free cell, each time once the learner has answered.
        for _ in 0..<5 {
            let board = served.state.board
            guard !board.isOver, let free = Position.all.first(where: { board[$0] == nil }) else { break }
            try client.send(.press(free))
            // Until the press's reply and a state where X is to move again or the game is over.
            var (replied, answered) = (false, false)
            while !(replied && answered), let message = try client.next(timeout: .seconds(20)) {
                replied = replied || message.type == .ok
                if let state = message.state, message.type == .state, state.turn == "X" || state.outcome != "playing" { answered = true }
            }
        }
        #expect(served.state.board.isOver)
        let taught = try #require(try learner())
        #expect(taught.games == 1 && taught.digest == served.state.learner.digest && taught.digest != first.digest, "the beads it learnt, as the loop holds them")
        #expect(try client.ask(.resetLearner(games: 1, resets: 0)).type == .ok)
        let fresh = try #require(try learner())
        #expect(fresh.games == 0 && fresh.resets == 1 && fresh.digest == first.digest, "a fresh learner's beads: none")
        // A yes asked about the first learner at 0 games arrives now: this one has 0 games too.
        let late = try client.ask(.resetLearner(games: 0, resets: 0))
        #expect(late.reason == "learner-changed" && late.text?.contains("not the one the reset was asked about: 1 reset came before it, not 0") == true, "\(late)")
        #expect(try learner()?.resets == 1, "refused: nothing reset")
        #expect(try client.ask(.resetLearner(games: 0, resets: 1)).type == .ok)
        #expect(try learner()?.resets == 2)
        let asked = try learner()
        #expect(served.views.last?.learner == asked, "clients are sent what the loop shows, digest and all")
    }

    @Test("a lesson through the API: its progress in the states to its end, in the learner's record; a second one refused while it runs, stopped keeping what it taught, refused mid-game")
    func lesson() throws {
        let served = try ServedBoard(opponent: .learner)
        defer { served.stop() }
        let client = try served.greetedClient()
        #expect(try client.ask(.teach(games: 60, level: 1)).type == .ok)
        var progress: [Int] = []
        while let state = try client.nextState(), let lesson = state.lesson {
            progress.append(lesson.played)
            if lesson.end != nil {
                #expect(lesson.end == "finished" && lesson.played == 60 && lesson.won + lesson.drew + lesson.lost == 60 && lesson.level == 1)
                #expect(state.learner?.games == 60 && state.scores["learner"] == ViewState.Tally(xWins: 0, oWins: 0, draws: 0))
                break
            }
        }
        let steps = Array(stride(from: Lesson.gamesPerStep, through: 60, by: Lesson.gamesPerStep))
        #expect(progress == steps, "each step (the lesson shown at 0 came before the reply)")
        #expect(served.views.compactMap(\.lesson?.played) == [0] + steps, "the loop's states, as clients were sent them")

        #expect(try client.ask(.teach(games: Lesson.mostGames, level: 4)).type == .ok)
        let again = try client.ask(.teach(games: 5, level: 4))
        #expect(again.reason == "learner-teaching" && again.errorReason == .learnerTeaching)
        let stopped = try client.ask(.stopTeaching)
        #expect(stopped.type == .ok && stopped.text?.hasPrefix("Stopped after") == true, "\(stopped)")
        let lesson = try #require(served.views.last?.lesson)
        #expect(lesson.end == "stopped" && lesson.played < Lesson.mostGames && served.views.last?.learner?.games == 60 + lesson.played)
        #expect(try client.ask(.stopTeaching).text == "No lesson was under way.")

        #expect(try client.ask(.press(Position(keypadKey: 5)!)).type == .ok)
        #expect(try client.ask(.teach(games: 5, level: 4)).reason == "learner-playing")
    }

    @Test("a press in the computer's turn says so by its reason")
    func computersTurn() throws {
        let served = try ServedBoard(opponent: .computer(.perfect))
        defer { served.stop() }
        let client = try served.greetedClient()
        #expect(try client.ask(.press(Position(keypadKey: 5)!)).type == .ok)
        #expect(try client.ask(.press(Position(keypadKey: 1)!)).reason == "computers-turn")
    }

    @Test("a reason of a later board leaves the message readable, its reason unknown")
    func laterReason() throws {
        let line = #"{"type":"error","reason":"on-fire","text":"the board is on fire"}"#
        let message = try JSONDecoder().decode(APIMessage.self, from: Data(line.utf8))
        #expect(message.type == .error && message.reason == "on-fire" && message.errorReason == nil)
    }

    @Test("docs/API.md lists every reason, and no other")
    func documented() throws {
        let document = repositoryRoot.appendingPathComponent("docs/API.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let start = text.range(of: "### Reasons\n") else {
            Issue.record("docs/API.md has no Reasons section")
            return
        }
        let section = text[start.upperBound...].prefix { $0 != "#" }
        let listed = section.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { row in
            row.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        #expect(listed.sorted() == ErrorReason.allCases.map(\.rawValue).sorted())
    }
}
