/// One finished game as the history keeps it: who played, every move with its time, and how
/// it ended.
///
/// Decoded from a file or a line, it is only a shape: the board checks that it is a game it
/// could have recorded before it uses one (BoardAPI's `PlayedGame.problem()`).
public struct PlayedGame: Codable, Sendable, Hashable {
    /// Who played O, by the opponent's name ("two-players", "computer-1" …).
    public var opponent: String
    public var names: ViewState.Names
    /// "X" or "O".
    public var starter: String
    /// When the first move was made, or when the game was restored into a restarted board, UTC.
    public var started: String
    public var finished: String
    /// "x-wins", "o-wins" or "draw".
    public var outcome: String
    /// Marks already on the board when the record began (a game carried over a restart: its
    /// earlier moves were made before the board's last start); nine, reading order.
    public var carriedOver: [String]?
    public var moves: [Move]

    public struct Move: Codable, Sendable, Hashable {
        /// "X" or "O".
        public var player: String
        /// The cell, by its keypad number (7 8 9 is the top row).
        public var cell: Int
        /// When it was made, UTC.
        public var at: String

        public init(player: String, cell: Int, at: String) {
            self.player = player
            self.cell = cell
            self.at = at
        }
    }

    public init(
        opponent: String, names: ViewState.Names, starter: String, started: String, finished: String, outcome: String,
        carriedOver: [String]?, moves: [Move]
    ) {
        self.opponent = opponent
        self.names = names
        self.starter = starter
        self.started = started
        self.finished = finished
        self.outcome = outcome
        self.carriedOver = carriedOver
        self.moves = moves
    }
}
