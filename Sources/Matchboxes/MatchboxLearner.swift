import TicTacToe

/// Donald Michie's matchbox learner (MENACE, 1961): a box of beads for every position it faces,
/// a bead drawn at random to choose each move, and at the end of the game beads added to or
/// taken from the moves it drew.
///
/// ## Contract
/// - A value with no I/O: every choice at random comes from the source passed in, so a seeded
///   source replays a learner's games exactly.
/// - Boxes are opened when first faced, filled by ``LearnerRules/initialBeads``: the same as
///   filling every box before the first game, and only the faced ones are kept and saved.
/// - ``move(on:using:)`` records the bead it drew; ``learn(_:)`` applies the game's result to
///   every recorded bead and forgets them; ``forgetGame()`` forgets them unapplied (a game given
///   up teaches nothing).
/// - A box found empty (its moves lost often enough to take every bead) is refilled as a fresh
///   one before drawing, and counted in ``refills``. Michie's machine resigned instead; a board
///   has no resignation to show, and refilling keeps what the other boxes learnt while this
///   position starts over.
/// - With one free cell there is no choice: the learner takes it, drawing no bead.
public struct MatchboxLearner: Sendable, Hashable {
    public let rules: LearnerRules
    /// Every box opened so far, by its position.
    public private(set) var boxes: [BoxKey: Matchbox]
    /// The beads drawn in the game being played, in order.
    public private(set) var drawn: [Draw] = []
    /// How many times a box was found empty and refilled.
    public private(set) var refills = 0

    /// A bead drawn: the box it came from and the cell (in the box's position) it stands for.
    public struct Draw: Sendable, Hashable {
        public let key: BoxKey
        public let cell: Int
    }

    public init(rules: LearnerRules = .michie, boxes: [BoxKey: Matchbox] = [:], refills: Int = 0) {
        self.rules = rules
        self.boxes = boxes
        self.refills = refills
    }

    /// The learner's move on `board` (the player to move is the learner); `nil` once the game is
    /// over.
    public mutating func move(on board: Board, using random: inout some RandomNumberGenerator) -> Position? {
        guard !board.isOver else { return nil }
        let free = Position.all.filter { board[$0] == nil }
        guard free.count > 1 else { return free.first }
        let (key, turning) = BoxKey.filing(board)
        var box = self.box(for: key)
        if box.total == 0 {
            box = fresh(key)
            refills += 1
        }
        boxes[key] = box
        guard let cell = box.cell(holding: Int.random(in: 0..<box.total, using: &random)) else { return nil }
        drawn.append(Draw(key: key, cell: cell))
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
    /// each free cell shows its kind's beads (cells alike share them), a taken cell none. All
    /// zeros when the game is over or the move is forced (no box).
    public func beads(on board: Board) -> [Int] {
        let free = Position.all.filter { board[$0] == nil }
        guard !board.isOver, free.count > 1 else { return Array(repeating: 0, count: 9) }
        let (key, turning) = BoxKey.filing(board)
        let box = box(for: key), own = key.ownSymmetries
        return Position.all.map { position in
            guard board[position] == nil else { return 0 }
            let cell = turning.image[position.index]
            let kind = own.map { $0.image[cell] }.min() ?? cell
            return box.beads[kind]
        }
    }

    /// Applies `result` to every bead drawn in this game, then forgets them.
    public mutating func learn(_ result: LearnerResult) {
        let change = rules.change(after: result)
        for draw in drawn {
            guard var box = boxes[draw.key] else { continue }
            box.beads[draw.cell] = min(max(box.beads[draw.cell] + change, 0), rules.mostBeads)
            boxes[draw.key] = box
        }
        drawn = []
    }

    /// Forgets the beads drawn in this game without learning from it.
    public mutating func forgetGame() {
        drawn = []
    }

    private func fresh(_ key: BoxKey) -> Matchbox {
        let marks = (key.xMarks | key.oMarks).nonzeroBitCount
        return Matchbox(for: key, each: rules.initialBeads(forMarks: marks))
    }
}
