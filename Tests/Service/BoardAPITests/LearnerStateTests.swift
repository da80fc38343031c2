import BoardProtocol
import Console
import Foundation
import Matchboxes
import ViewModel
import Testing
import TicTacToe
@testable import BoardAPI

@Suite("The learner in the board's state")
struct LearnerStateTests {
    /// A session against the learner after `keys`, its learner trained on `games` games.
    static func session(_ keys: [Int], starter: Player = .x, games: Int = 40) throws -> SessionState {
        var learner = MatchboxLearner()
        var computer = ComputerPlayer(level: .random, random: SeededRandom(seed: 3))
        var random = SeededRandom(seed: 4)
        for game in 0..<games { _ = TrainingGame.play(&learner, against: &computer, starter: game % 2 == 0 ? .x : .o, using: &random) }
        let moves = keys.compactMap { Position(keypadKey: $0) }
        return SessionState(snapshot: GameSnapshot(
            board: try Board(starter: starter).playing(moves), nextStarter: starter.opponent, opponent: .learner, scores: [:],
            moves: MoveList(moves), learner: learner))
    }

    @Test("its record always; its box, cell by cell, only when it is to move, and it survives the JSON line")
    func learnerField() throws {
        let toMove = try Self.session([5])
        let view = ViewState(toMove, players: PlayerNames(), marks: .standard)
        let learner = try #require(view.learner)
        let record = toMove.learner.record
        #expect(learner.games == 40 && learner.won + learner.drew + learner.lost == 40)
        #expect(learner.won == record.total.won && learner.lost == record.total.lost)
        #expect(learner.boxes == toMove.learner.boxes.count)
        #expect(learner.box == toMove.learner.beads(on: toMove.board))
        #expect(learner.box?[4] == 0, "the centre is taken")
        let decoded = try JSONDecoder().decode(ViewState.self, from: JSONEncoder().encode(view))
        #expect(decoded == view)

        let xToMove = ViewState(try Self.session([5, 1]), players: PlayerNames(), marks: .standard)
        #expect(xToMove.learner?.box == nil)
        let json = String(decoding: try JSONEncoder().encode(xToMove), as: UTF8.self)
        #expect(json.contains("\"box\":null"))
    }

    @Test("status and watch --once print its record and, when it is to move, its box laid out as the board")
    func printed() throws {
        let state = try Self.session([7, 5], starter: .o)
        let view = ViewState(state, players: PlayerNames(), marks: .standard)
        let text = RemoteWatch.plain(view)
        let beads = state.learner.beads(on: state.board)
        #expect(text.contains("learner: 40 games since it was made"))
        #expect(text.contains("of \(PositionsFaced.playingO.count) boxes opened"))
        let rows = text.split(separator: "\n").suffix(3).map { $0.split(separator: " ").map(String.init) }
        #expect(rows[0][0] == "O" && rows[1][1] == "X", "\(text)")
        #expect(rows[0][1] == String(beads[1]) && rows[2][2] == String(beads[8]), "\(text)")
        var older = view
        older.learner = nil
        #expect(!RemoteWatch.plain(older).contains("learner:"), "a board without a learner says nothing of it")
    }

    @Test("its tens: [won, drew, lost] each, oldest first, the last one short; at most the last 100, the latest")
    func tens() throws {
        let few = try Self.session([5], games: 23)
        let record = few.learner.record
        let shown = try #require(ViewState(few, players: PlayerNames(), marks: .standard).learner?.tens)
        #expect(shown == record.tens.map { [$0.won, $0.drew, $0.lost] })
        #expect(shown.count == 3 && shown[2].reduce(0, +) == 3)
        let json = String(decoding: try JSONEncoder().encode(ViewState(few, players: PlayerNames(), marks: .standard)), as: UTF8.self)
        let triple = shown[0].map(String.init).joined(separator: ",")
        #expect(json.contains("\"tens\":[[\(triple)]"), "\(json)")

        let many = try Self.session([5], games: 1_234)
        let view = ViewState(many, players: PlayerNames(), marks: .standard)
        let bounded = try #require(view.learner?.tens)
        let all = many.learner.record.tens
        #expect(all.count == 124)
        #expect(bounded.count == ViewState.Learner.tensShown && ViewState.Learner.tensShown == 100)
        #expect(bounded == all.suffix(100).map { [$0.won, $0.drew, $0.lost] }, "the latest hundred, in order")
        let first = (many.learner.record.games + 9) / 10 - bounded.count + 1
        #expect(first == 25, "the first ten shown, as docs/API.md computes it")
        let line = try JSONEncoder().encode(view)
        let without = try JSONEncoder().encode(ViewState(many, players: PlayerNames(), marks: .standard).droppingTens())
        #expect(line.count - without.count <= 1_000, "the tens add at most about 900 bytes to a state")
        #expect(try JSONDecoder().decode(ViewState.self, from: line) == view)
        let older = #"{"games":1,"won":1,"drew":0,"lost":0,"boxes":2,"box":null}"#
        #expect(try JSONDecoder().decode(ViewState.Learner.self, from: Data(older.utf8)).tens == nil, "a board older than the field")
    }
}

extension ViewState {
    func droppingTens() -> ViewState {
        var copy = self
        copy.learner?.tens = nil
        return copy
    }
}

extension LearnerStateTests {
    @Test("its latest games go out as [won, drew, lost] and status says its losses among them, in numbers; a board that sends none or nonsense gets no line")
    func latest() throws {
        let state = try Self.session([5], games: 123)
        let view = ViewState(state, players: PlayerNames(), marks: .standard)
        let latest = state.learner.record.latest
        #expect(latest.games == 93, "tens 4 to 13: games 31 to 123")
        #expect(view.learner?.latest == [latest.won, latest.drew, latest.lost])
        let json = String(decoding: try JSONEncoder().encode(view), as: UTF8.self)
        #expect(json.contains("\"latest\":[\(latest.won),\(latest.drew),\(latest.lost)]"), "\(json)")
        let percent = Int((100 * Double(latest.lost) / 93).rounded())
        #expect(RemoteWatch.plain(view).contains("lost \(latest.lost) of its latest 93 games (\(percent)%)"), "\(RemoteWatch.plain(view))")

        var older = view
        older.learner?.latest = nil
        #expect(!RemoteWatch.plain(older).contains("of its latest"))
        for nonsense in [[1, 2], [Int.max, Int.max, 1], [-1, 0, 3], [0, 0, 0], [60, 50, 1]] {
            var sent = view
            sent.learner?.latest = nonsense
            #expect(!RemoteWatch.plain(sent).contains("of its latest"), "\(nonsense)")
        }
        var one = view
        one.learner?.latest = [0, 0, 1]
        #expect(RemoteWatch.plain(one).contains("lost 1 of its latest game (100%)"))
    }
}
