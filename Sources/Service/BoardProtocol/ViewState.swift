/// What the board shows, as the board's API sends it: the cells, whose turn, the outcome and
/// its lines, the refused cell, whether the lights sleep, who plays O, whether the computer is
/// about to move, and the score of every pairing.
///
/// The board makes it as a pure function of its session state (BoardAPI's
/// `ViewState(_:players:)`), with nothing of the LEDs' animation in it: the blink's phase is not
/// a change of what the board shows, so a blinking board sends no state messages.
///
/// Cells are numbered as the simulator's keys and the numeric keypad are: 7 8 9 is the top row,
/// 1 2 3 the bottom one. ``cells`` lists the marks in reading order (7, 8, 9, 4, …).
public struct ViewState: Codable, Sendable, Hashable {
    /// Nine marks in reading order, top left first: "X", "O" or "".
    public var cells: [String]
    /// Who started this game: "X" or "O".
    public var starter: String
    /// Who moves now ("X" or "O"), or `nil` once the game is over.
    public var turn: String?
    /// "playing", "x-wins", "o-wins" or "draw".
    public var outcome: String
    /// Every line the winner completed, each as three cell numbers.
    public var winningLines: [[Int]]
    /// The cell flickering amber after a refused press, by number.
    public var flashing: Int?
    public var asleep: Bool
    /// Who plays O, by name: "two-players", "computer-1" … "computer-4".
    public var opponent: String
    /// The computer plays now: its move comes after its thinking time.
    public var thinking: Bool
    /// What the players are called (`null` for no name: the mark is the name); against the
    /// computer, O is the computer whatever its name.
    public var names: Names
    /// The score of each pairing, by the opponent's name, every pairing listed.
    public var scores: [String: Tally]
    /// How each cell looks, in reading order, by the names of the table of states
    /// (docs/VIEWS.md): "empty", "x", "o-winning", "refused-empty", "x-offered", … A view draws
    /// these and decides nothing of its own.
    public var looks: [String]
    /// What the board says as a whole, by the table's names: "x-to-move", "o-thinking",
    /// "o-wins", "draw", "asleep", "choosing-opponent", …
    public var headline: String

    /// The ``headline`` while the board shows a choice of opponent, for a client that tells it
    /// apart (the board's own name for it is its table's, which a test holds this to).
    public static let choosingOpponent = "choosing-opponent"

    /// How the board tells X's marks from O's besides colour (the configuration's `lights.marks`):
    /// "colour-and-brightness" (O dim) or "colour"; `nil` from a board older than this field. A
    /// view that draws marks draws them as the LEDs do.
    public var marks: String?
    /// The matchbox learner (the opponent "learner"), whoever plays now; `nil` from a board
    /// older than it.
    public var learner: Learner?
    /// The learner's lesson (`teach`): under way, or the last one since the board started;
    /// `nil` when it has had none, and from a board older than this field.
    public var lesson: Lesson?
    /// Against another board (an ``opponent`` "board:…"), the game as both boards keep it;
    /// `nil` against any other opponent, and from a board older than this field.
    public var otherBoard: OtherBoard?
    /// The other boards the board's network link sees online, the ones that invite this board
    /// first (``SeenReport``): what a view offers as opponents ("board:NAME" to invite,
    /// "board:NAME:x" to join). Empty when none is seen or no link runs; `nil` from a board older
    /// than this field.
    public var boardsSeen: [SeenReport.Board]?

    /// The game with another board: its name and the mark it plays, the pairing's game on the
    /// board (0 while the board that invited this one has not been heard), whether that board is
    /// heard playing it, and the game's moves in order, by cell number. Each board's link
    /// publishes it for the other to follow (docs/NETWORK.md).
    public struct OtherBoard: Codable, Sendable, Hashable {
        public var board: String
        /// "X" or "O".
        public var mark: String
        public var game: Int
        public var here: Bool
        public var moves: [Int]
        /// The moves of the pairing's game before, when it ended on this board (null otherwise):
        /// for the other board to end it too, should it have missed its last move.
        public var previous: [Int]?

        public init(board: String, mark: String, game: Int, here: Bool, moves: [Int], previous: [Int]? = nil) {
            self.board = board
            self.mark = mark
            self.game = game
            self.here = here
            self.moves = moves
            self.previous = previous
        }
    }

    /// A lesson's progress: `games` asked for against the computer at `level`, `played` so far
    /// with the learner's results in them, and how it ended (`"finished"`, `"stopped"`,
    /// `"interrupted"` by a game against the learner or a reset), `nil` while under way.
    public struct Lesson: Codable, Sendable, Hashable {
        public var games: Int
        public var level: Int
        public var played: Int
        public var won: Int
        public var drew: Int
        public var lost: Int
        public var end: String?

        public init(games: Int, level: Int, played: Int, won: Int, drew: Int, lost: Int, end: String?) {
            (self.games, self.level, self.played) = (games, level, played)
            (self.won, self.drew, self.lost, self.end) = (won, drew, lost, end)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(games, forKey: .games)
            try container.encode(level, forKey: .level)
            try container.encode(played, forKey: .played)
            try container.encode(won, forKey: .won)
            try container.encode(drew, forKey: .drew)
            try container.encode(lost, forKey: .lost)
            try container.encode(end, forKey: .end)
        }
    }

    /// What the learner has played and learnt: its record since it was made, how many boxes it
    /// has opened, and the beads of its box for the position on the board when it is to move.
    public struct Learner: Codable, Sendable, Hashable {
        /// Games it has finished since it was made.
        public var games: Int
        /// Games it won, drew and lost, over the last ten thousand.
        public var won: Int
        public var drew: Int
        public var lost: Int
        /// Boxes it has opened, of the 593 it can need.
        public var boxes: Int
        /// When it is to move: the beads behind each cell in reading order (0 for a taken cell);
        /// otherwise `nil`.
        public var box: [Int]?
        /// Its results by tens of games since it was last reset, oldest first, each as
        /// `[won, drew, lost]` (the last ten may be short): at most ``tensShown`` of them, the
        /// latest. The first one shown is ten number `(games + 9) / 10 - tens.count + 1`. `nil`
        /// from a board older than this field.
        public var tens: [[Int]]?
        /// Its latest games, about a hundred (``LearnerRecord/latest``: the last ten tens, 91 to
        /// 100 games once it has played that many), as `[won, drew, lost]`: how it plays now,
        /// which its record since the reset hides. `nil` from a board older than this field.
        public var latest: [Int]?
        /// How many times the board's learner was reset before this one
        /// (``MatchboxLearner/resets``): with `games`, names this learner, as `reset-learner`
        /// asks. `nil` from a board older than this field.
        public var resets: Int?
        /// Its beads' ``MatchboxLearner/digest`` (16 hex digits): the same on every machine for
        /// the same beads, as `check-state --json` gives for the saved learner. `nil` from a
        /// board older than this field.
        public var digest: String?

        /// The most tens a state carries: enough for a curve, few enough that every state
        /// message stays small (at most about 900 bytes more).
        public static let tensShown = 100

        public init(games: Int, won: Int, drew: Int, lost: Int, boxes: Int, box: [Int]?, tens: [[Int]]? = nil, latest: [Int]? = nil,
            resets: Int? = nil, digest: String? = nil
        ) {
            self.tens = tens
            self.latest = latest
            self.resets = resets
            self.digest = digest
            self.games = games
            self.won = won
            self.drew = drew
            self.lost = lost
            self.boxes = boxes
            self.box = box
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(games, forKey: .games)
            try container.encode(won, forKey: .won)
            try container.encode(drew, forKey: .drew)
            try container.encode(lost, forKey: .lost)
            try container.encode(boxes, forKey: .boxes)
            try container.encode(box, forKey: .box)
            try container.encode(tens, forKey: .tens)
            try container.encode(latest, forKey: .latest)
            try container.encode(resets, forKey: .resets)
            try container.encode(digest, forKey: .digest)
        }
    }

    public struct Names: Codable, Sendable, Hashable {
        public var x: String?
        public var o: String?

        public init(x: String?, o: String?) {
            self.x = x
            self.o = o
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(x, forKey: .x)
            try container.encode(o, forKey: .o)
        }
    }

    public struct Tally: Codable, Sendable, Hashable {
        public var xWins: Int
        public var oWins: Int
        public var draws: Int

        public init(xWins: Int, oWins: Int, draws: Int) {
            self.xWins = xWins
            self.oWins = oWins
            self.draws = draws
        }
    }

    public init(
        cells: [String], starter: String, turn: String?, outcome: String, winningLines: [[Int]], flashing: Int?, asleep: Bool,
        opponent: String, thinking: Bool, names: Names, scores: [String: Tally], looks: [String], headline: String,
        marks: String?, learner: Learner? = nil, lesson: Lesson? = nil, otherBoard: OtherBoard? = nil,
        boardsSeen: [SeenReport.Board]? = []
    ) {
        self.otherBoard = otherBoard
        self.boardsSeen = boardsSeen
        self.marks = marks
        self.learner = learner
        self.lesson = lesson
        self.looks = looks
        self.headline = headline
        self.cells = cells
        self.starter = starter
        self.turn = turn
        self.outcome = outcome
        self.winningLines = winningLines
        self.flashing = flashing
        self.asleep = asleep
        self.opponent = opponent
        self.thinking = thinking
        self.names = names
        self.scores = scores
    }

    // Written out, not synthesized: `turn` and `flashing` are sent as null when there is none,
    // so that every state message has every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cells, forKey: .cells)
        try container.encode(starter, forKey: .starter)
        try container.encode(turn, forKey: .turn)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(winningLines, forKey: .winningLines)
        try container.encode(flashing, forKey: .flashing)
        try container.encode(asleep, forKey: .asleep)
        try container.encode(opponent, forKey: .opponent)
        try container.encode(thinking, forKey: .thinking)
        try container.encode(names, forKey: .names)
        try container.encode(scores, forKey: .scores)
        try container.encode(looks, forKey: .looks)
        try container.encode(headline, forKey: .headline)
        try container.encode(marks, forKey: .marks)
        try container.encode(learner, forKey: .learner)
        try container.encode(lesson, forKey: .lesson)
        try container.encode(otherBoard, forKey: .otherBoard)
        try container.encode(boardsSeen, forKey: .boardsSeen)
    }
}
