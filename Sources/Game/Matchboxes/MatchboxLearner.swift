import TicTacToe

/// Donald Michie's matchbox learner (MENACE, 1961): a box of beads for every position it faces,
/// a bead drawn at random to choose each move, and at the end of the game beads added to or
/// taken from the moves it drew.
///
/// ## Contract
/// - A value with no I/O: every choice at random comes from the source passed in, so a seeded
///   source replays a learner's games exactly.
/// - Its memory is its boxes and nothing else: ``move(on:using:)`` only reads them, and
///   ``learn(from:)`` works out from a finished game's moves which bead each of the learner's
///   moves stands for. So a game needs no record beyond its moves (which the board saves
///   anyway), and a game given up, never learnt from, leaves no trace.
/// - Boxes are opened when first learnt in, filled by ``LearnerRules/initialBeads``: the same
///   as filling every box before the first game, and only those opened are kept and saved.
/// - A box found empty (its moves lost often enough to take every bead) is drawn from and learnt
///   in as a fresh one, and counted in ``refills`` when refilled. Michie's machine resigned
///   instead; a board has no resignation to show, and refilling keeps what the other boxes
///   learnt while this position starts over.
/// - A move that would pass ``LearnerRules/mostBeads`` halves its whole box instead (each
///   count rounded up, so no move it could draw is lost): the box keeps its proportions, what
///   it learnt, where a cap would have flattened its best move towards the others.
/// - With one free cell there is no choice: the learner takes it, and nothing is learnt there.
public struct MatchboxLearner: Sendable, Hashable {
    public let rules: LearnerRules
    /// Every box opened so far, by its position.
    public private(set) var boxes: [BoxKey: Matchbox]
    /// How many times a box was found empty and refilled.
    public private(set) var refills: Int
    /// Its results, game by game, since it was made.
    public private(set) var record: LearnerRecord
    /// How many learners came before this one on the board: each reset makes a fresh learner
    /// one more. With ``LearnerRecord/games`` it names the learner's beads as they stand: beads
    /// change only when it learns (a game more) or is reset (a reset more), so a reset asked
    /// about one learner is told from another at the same count of games, and what is worked
    /// out from its beads (its ``digest``) is worked out once for each.
    public let resets: Int

    public init(
        rules: LearnerRules = .michie, boxes: [BoxKey: Matchbox] = [:], refills: Int = 0, record: LearnerRecord = LearnerRecord(), resets: Int = 0
    ) {
        self.rules = rules
        self.boxes = boxes
        self.refills = refills
        self.record = record
        self.resets = resets
    }

    /// A fresh learner in its place: no box opened, no game in its record, the same rules, one
    /// more reset.
    public func reset() -> MatchboxLearner {
        MatchboxLearner(rules: rules, resets: resets + 1)
    }

    /// The same learner (boxes, refills, record and resets) following `rules` from now on: the
    /// rules of the board's configuration, over the boxes its saved game kept.
    public func following(_ rules: LearnerRules) -> MatchboxLearner {
        MatchboxLearner(rules: rules, boxes: boxes, refills: refills, record: record, resets: resets)
    }

    /// The learner's move on `board` (the player to move is the learner): a bead drawn from
    /// the position's box; `nil` once the game is over.
    public func move(on board: Board, using random: inout some RandomNumberGenerator) -> Position? {
        guard !board.isOver else { return nil }
        let free = Position.all.filter { board[$0] == nil }
        guard free.count > 1 else { return free.first }
        let (key, turning) = BoxKey.filing(board)
        let box = drawable(key)
        guard let cell = box.cell(holding: Int.random(in: 0..<box.total, using: &random)) else { return nil }
        // Any of the cell's likes is the same move; which one is drawn too, so play looks varied.
        let own = key.ownSymmetries
        let like = own[Int.random(in: 0..<own.count, using: &random)].image[cell]
        return Position(index: turning.inverse.image[like])
    }

    /// The box for `key` as it stands, or a fresh one if it was never opened.
    public func box(for key: BoxKey) -> Matchbox {
        boxes[key] ?? fresh(key)
    }

    /// The beads behind each cell of `board` for the learner to move there, in reading order:
    /// each free cell shows its kind's beads (cells alike share them; an empty box shows as the
    /// fresh one it will be drawn from), a taken cell none. All
    /// zeros when the game is over or the move is forced (no box).
    public func beads(on board: Board) -> [Int] {
        let free = Position.all.filter { board[$0] == nil }
        guard !board.isOver, free.count > 1 else { return Array(repeating: 0, count: 9) }
        let (key, turning) = BoxKey.filing(board)
        let box = drawable(key), own = key.ownSymmetries
        return Position.all.map { position in
            guard board[position] == nil else { return 0 }
            let cell = turning.image[position.index]
            let kind = own.map { $0.image[cell] }.min() ?? cell
            return box.beads[kind]
        }
    }

    /// Learns from a finished game: each of the learner's moves in it, made where it had a
    /// choice, gains or loses the beads the game's result calls for. A game that is not over
    /// (or not legal) teaches nothing.
    public mutating func learn(from game: FinishedGame) {
        guard let result = game.result else { return }
        record.add(result)
        let change = rules.change(after: result)
        var board = Board(starter: game.starter)
        for move in game.moves {
            if board.turn == game.learner, Position.all.filter({ board[$0] == nil }).count > 1 {
                let (key, turning) = BoxKey.filing(board)
                var box = boxes[key].map { $0.total == 0 ? fresh(key) : $0 } ?? fresh(key)
                if boxes[key]?.total == 0 { refills += 1 }
                let cell = turning.image[move.index], kind = key.ownSymmetries.map { $0.image[cell] }.min() ?? cell
                box.beads[kind] = max(box.beads[kind] + change, 0)
                // Halving stops at one bead: a limit under one would never be met.
                while box.beads[kind] > max(rules.mostBeads, 1) { box.halve() }
                boxes[key] = box
            }
            guard let next = try? board.playing(move) else { return }
            board = next
        }
    }

    /// The box to draw from for `key`: as it stands, or fresh if never opened or empty.
    private func drawable(_ key: BoxKey) -> Matchbox {
        guard let box = boxes[key], box.total > 0 else { return fresh(key) }
        return box
    }

    private func fresh(_ key: BoxKey) -> Matchbox {
        let marks = (key.xMarks | key.oMarks).nonzeroBitCount
        return Matchbox(for: key, each: rules.initialBeads(forMarks: marks))
    }
}
