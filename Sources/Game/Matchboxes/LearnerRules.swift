/// How the learner's beads are counted: what a fresh box holds and what the end of a game does
/// to the beads drawn in it. Michie's rules (1961, as he reported them in 1963) are
/// ``michie``.
public struct LearnerRules: Sendable, Hashable, CustomStringConvertible {
    /// Beads of each move in a fresh box, by the learner's move in the game it is for: the first
    /// move's boxes hold `initialBeads[0]` of each move, the second's `initialBeads[1]`, and so
    /// on (a position with `n` marks is the learner's move `n / 2 + 1`). Michie: 4, 3, 2, 1 —
    /// more beads early, where one game's lesson should weigh less.
    public var initialBeads: [Int]
    /// Beads added to each move drawn, in a game the learner won.
    public var win: Int
    /// Beads added to each move drawn, in a drawn game.
    public var draw: Int
    /// Beads taken from each move drawn (never below none), in a game the learner lost.
    public var loss: Int
    /// The most beads one move may hold: a box's count stays small enough to save and to show.
    public var mostBeads: Int

    /// The most beads one move may hold under the board's rules (a saved box holding more is
    /// refused).
    public static let mostBeads = 255

    public init(initialBeads: [Int], win: Int, draw: Int, loss: Int, mostBeads: Int = LearnerRules.mostBeads) {
        self.initialBeads = initialBeads
        self.win = win
        self.draw = draw
        self.loss = loss
        self.mostBeads = mostBeads
    }

    /// Michie's: 4, 3, 2 and 1 beads by stage; three beads for a win, one for a draw, one taken
    /// for a loss.
    public static let michie = LearnerRules(initialBeads: [4, 3, 2, 1], win: 3, draw: 1, loss: 1)

    /// The board's: one bead of each move in every fresh box, one bead for a win, five for a
    /// draw, five taken for a loss. Chosen from near the top of a search by measurement among
    /// rules of Michie's kind, over many seeded learners on either side (docs/BENCHMARKS.md, "The
    /// matchbox learner", has the figures and the search): a draw that earns as much as a loss
    /// costs, both large beside a fresh box's beads, plays a move that held again and drops one
    /// that lost at once, so it learns to hold the perfect player in far fewer games.
    public static let quick = LearnerRules(initialBeads: [1, 1, 1, 1], win: 1, draw: 5, loss: 5)

    /// The learner's rules by the name the configuration gives them (`learner.rules`).
    public enum Named: String, Sendable, CaseIterable {
        /// ``LearnerRules/quick``: the board's.
        case quick
        /// ``LearnerRules/michie``: Michie's own, for the history lesson (a board may change
        /// their counts).
        case michie

        public var rules: LearnerRules {
            switch self {
            case .quick: .quick
            case .michie: .michie
            }
        }
    }

    /// Its counts in a few words: "4-3-2-1 beads, +3 a win, +1 a draw, −1 a loss".
    public var description: String {
        "\(initialBeads.map(String.init).joined(separator: "-")) beads, +\(win) a win, +\(draw) a draw, −\(loss) a loss"
    }

    /// The learner's four moves, by the words the configuration names them with.
    public static let moveNames = ["first", "second", "third", "fourth"]

    /// The beads of each move in a fresh box for a position with `marks` marks.
    func initialBeads(forMarks marks: Int) -> Int {
        initialBeads[min(marks / 2, initialBeads.count - 1)]
    }

    /// The change to each drawn move's beads after a game that ended in `result`.
    func change(after result: LearnerResult) -> Int {
        switch result {
        case .won: win
        case .drew: draw
        case .lost: -loss
        }
    }
}

/// How a game ended for the learner.
public enum LearnerResult: String, Sendable, Hashable, CaseIterable {
    case won, drew, lost
}
