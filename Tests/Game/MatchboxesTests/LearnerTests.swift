import TestSupport
import Testing
import TicTacToe
@testable import Matchboxes

/// No game from the position ends as asked.
struct Unreachable: Error {}

@Suite("Michie's rules and the learner's learning")
struct LearnerTests {
    /// A board after `keys` (keypad numbers), X starting unless said.
    static func board(_ keys: [Int], starter: Player = .x) throws -> Board {
        try Board(starter: starter).playing(keys.compactMap { Position(keypadKey: $0) })
    }

    /// The first position met in reading order (O starting on an even count, X on an odd one)
    /// with `marks` marks and O to move with a choice, for which `fits` holds.
    static func position(marks: Int, where fits: (Board, [Int]) -> Bool) throws -> (board: Board, keys: [Int]) {
        let starter: Player = marks % 2 == 0 ? .o : .x
        func search(_ board: Board, _ keys: [Int]) -> (Board, [Int])? {
            guard !board.isOver else { return nil }
            if keys.count == marks { return fits(board, keys) ? (board, keys) : nil }
            for cell in Position.all where board[cell] == nil {
                if let next = try? board.playing(cell), let found = search(next, keys + [cell.keypadKey]) { return found }
            }
            return nil
        }
        return try #require(search(Board(starter: starter), []))
    }

    /// Whether some game goes on from `board` (reached by `keys`) with `move` and ends as `ending`.
    static func reachable(_ ending: LearnerResult, from board: Board, keys: [Int], move: Position) -> Bool {
        (try? playedOut(from: board, keys: keys, move: move, ending: ending)) != nil
    }

    @Test("after a win, a draw and a loss, the move played gains 3, gains 1, loses 1, at every stage", arguments: 0...7)
    func rules(marks: Int) throws {
        let fresh = 4 - marks / 2
        for (result, change) in [(LearnerResult.won, 3), (.drew, 1), (.lost, -1)] {
            guard let (board, keys) = try? Self.position(marks: marks, where: { board, keys in
                Position.all.contains { board[$0] == nil && Self.reachable(result, from: board, keys: keys, move: $0) }
            }) else {
                #expect(marks >= 6 && result == .won, "only the last moves cannot lead to every end")
                continue
            }
            let move = try #require(Position.all.first { board[$0] == nil && Self.reachable(result, from: board, keys: keys, move: $0) })
            let key = BoxKey.filing(board).key
            var learner = MatchboxLearner()
            #expect(learner.beads(on: board)[move.index] == fresh, "stage \(marks / 2 + 1): \(fresh) beads each")
            #expect(learner.box(for: key).total == fresh * Matchbox.kinds(of: key).count)
            let game = try Self.playedOut(from: board, keys: keys, move: move, ending: result)
            learner.learn(from: game)
            let total = fresh * Matchbox.kinds(of: key).count + change
            #expect(learner.box(for: key).total == total)
            // An emptied box is shown (and drawn from) as the fresh box it will be refilled as.
            #expect(learner.beads(on: board)[move.index] == (total == 0 ? fresh : fresh + change), "\(result): \(game.moves)")
            var random = SeededRandom(seed: 7)
            let drawn = try #require(learner.move(on: board, using: &random))
            #expect(board[drawn] == nil)
        }
    }

    /// The game of `keys` then `move`, played on by both sides (the learner's later moves too)
    /// until it ends as `ending` for O, found by trying every way of playing on.
    static func playedOut(from board: Board, keys: [Int], move: Position, ending: LearnerResult) throws -> FinishedGame {
        func search(_ board: Board, _ moves: [Position]) -> [Position]? {
            if board.isOver {
                return FinishedGame(starter: board.starter, learner: .o, moves: moves).result == ending ? moves : nil
            }
            for cell in Position.all where board[cell] == nil {
                if let next = try? board.playing(cell), let found = search(next, moves + [cell]) { return found }
            }
            return nil
        }
        let first = keys.compactMap { Position(keypadKey: $0) } + [move]
        guard let moves = search(try board.playing(move), first) else { throw Unreachable() }
        return FinishedGame(starter: board.starter, learner: .o, moves: moves)
    }

    @Test("a box emptied by losses is drawn from as fresh, and refilled when next learnt in, counted")
    func emptyBox() throws {
        // O's fourth move, one bead of each kind, where every kind of move can lose.
        let (board, keys) = try Self.position(marks: 6) { board, keys in
            let (key, turning) = BoxKey.filing(board)
            return Matchbox.kinds(of: key).allSatisfy { kind in
                Position(index: turning.inverse.image[kind]).map { Self.reachable(.lost, from: board, keys: keys, move: $0) } ?? false
            }
        }
        let (key, turning) = BoxKey.filing(board)
        let kinds = Matchbox.kinds(of: key)
        var learner = MatchboxLearner()
        for (lost, kind) in kinds.enumerated() {
            let move = try #require(Position(index: turning.inverse.image[kind]))
            learner.learn(from: try Self.playedOut(from: board, keys: keys, move: move, ending: .lost))
            #expect(learner.box(for: key).total == kinds.count - lost - 1)
        }
        #expect(learner.refills == 0)
        #expect(learner.beads(on: board).reduce(0, +) > 0, "shown as the fresh box it is drawn from")
        var random = SeededRandom(seed: 1)
        let move = try #require(learner.move(on: board, using: &random))
        learner.learn(from: try Self.playedOut(from: board, keys: keys, move: move, ending: .lost))
        #expect(learner.refills == 1)
        #expect(learner.box(for: key).total == kinds.count - 1, "refilled with one of each, then one lost")
    }

    @Test("a bead never goes below none; a move past the most halves its box, rounding up; a forced move has no box; a game not over teaches nothing")
    func bounds() throws {
        let rules = LearnerRules(initialBeads: [4, 3, 2, 1], win: 300, draw: 1, loss: 9, mostBeads: 255)
        let start = Board(starter: .o)
        let corner = try #require(Position(keypadKey: 7)), centre = Position.all[4], edge = Position.all[1]
        var winning = MatchboxLearner(rules: rules)
        winning.learn(from: try Self.playedOut(from: start, keys: [], move: corner, ending: .won))
        #expect(winning.beads(on: start)[corner.index] == 152, "4 and 300 is 304, halved")
        #expect(winning.beads(on: start)[centre.index] == 2 && winning.beads(on: start)[edge.index] == 2, "the others halved too")
        winning.learn(from: try Self.playedOut(from: start, keys: [], move: corner, ending: .won))
        #expect(winning.beads(on: start)[corner.index] == 226, "152 and 300 is 452, halved")
        #expect(winning.beads(on: start)[centre.index] == 1, "2 halved; a move keeps one bead")
        #expect(winning.boxes.values.allSatisfy { $0.beads.allSatisfy { $0 <= rules.mostBeads } })
        var losing = MatchboxLearner(rules: rules)
        losing.learn(from: try Self.playedOut(from: start, keys: [], move: corner, ending: .lost))
        #expect(losing.beads(on: start)[corner.index] == 0, "4 beads less 9")
        #expect(losing.beads(on: start)[Position.all[4].index] == 4)

        let forced = try Self.board([5, 1, 9, 3, 7, 8, 2, 6], starter: .o)
        var random = SeededRandom(seed: 3)
        #expect(MatchboxLearner().move(on: forced, using: &random) == Position(keypadKey: 4))
        #expect(MatchboxLearner().beads(on: forced) == Array(repeating: 0, count: 9))

        var unfinished = MatchboxLearner()
        unfinished.learn(from: FinishedGame(starter: .o, learner: .o, moves: [corner, Position.all[4]]))
        #expect(unfinished.boxes.isEmpty)
        #expect(FinishedGame(starter: .o, learner: .o, moves: [corner, corner]).result == nil, "not legal")
    }

    /// Plays `games` training games against `computer`, starters taking turns, and returns the
    /// results in order.
    static func train(_ learner: inout MatchboxLearner, games: Int, level: ComputerLevel, seed: UInt64) -> [LearnerResult] {
        var computer = ComputerPlayer(level: level, random: SeededRandom(seed: seed))
        var random = SeededRandom(seed: seed &+ 1)
        return (0..<games).map { game in
            TrainingGame.play(&learner, against: &computer, starter: game % 2 == 0 ? .x : .o, using: &random)
        }
    }

    /// Games against the perfect computer after which, over these seeds, the learner lost no more
    /// under either rules, with a margin.
    static let trainingGames = 15000

    @Test("trained against the perfect computer, a learner loses none of the next 100 games; untrained, it loses some", .soak,
          arguments: LearnerRules.Named.allCases, [1, 2, 3, 4, 5] as [UInt64])
    func learns(rules: LearnerRules.Named, seed: UInt64) {
        var untrained = MatchboxLearner(rules: rules.rules)
        let fresh = Self.train(&untrained, games: 100, level: .perfect, seed: seed)
        #expect(fresh.filter { $0 == .lost }.count >= 10)

        var learner = MatchboxLearner(rules: rules.rules)
        _ = Self.train(&learner, games: Self.trainingGames, level: .perfect, seed: seed)
        let next = Self.train(&learner, games: 100, level: .perfect, seed: seed &+ 1000)
        #expect(!next.contains(.lost))
        #expect(!next.contains(.won), "the perfect computer never loses")
        #expect(learner.boxes.count <= PositionsFaced.keys(learner: .o).count)
    }
}

@Suite("the learner's digest")
struct LearnerDigestTests {
    @Test("the digest hashes each opened box's beads in key order; the same boxes, the same digest, whatever order they were opened in")
    func digest() throws {
        let empty = try #require(BoxKey(cells: "........."))
        let corner = try #require(BoxKey(cells: "X........"))
        let emptyBox = try #require(Matchbox(for: empty, beads: [5, 4, 0, 0, 4, 0, 0, 0, 0]))
        let cornerBox = Matchbox(for: corner, each: 3)
        let one = MatchboxLearner(boxes: [empty: emptyBox, corner: cornerBox])
        let other = MatchboxLearner(boxes: [corner: cornerBox, empty: emptyBox])
        #expect(MatchboxLearner().digest == "cbf29ce484222325", "FNV-1a's offset basis: the hash of nothing")
        #expect(one.digestText.hasPrefix(".........:5,4,0,0,4,0,0,0,0\n"))
        #expect(one.digest == other.digest)
        let fewer = MatchboxLearner(boxes: [empty: emptyBox])
        #expect(fewer.digest == "282cebea93cb8df2", "FNV-1a of the one line, computed apart from this code")
        #expect(fewer.digest != one.digest)
    }
}
