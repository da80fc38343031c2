/// Why the board (or the web view in front of it) refused a line, or why it cannot be reached:
/// the `reason` of an `error` message and of the web view's `web` message, one stable name a
/// program can decide on. The message's `text` says the same in a sentence for a person at a
/// terminal (and may change wording); a page chooses its own words from the reason, so that it
/// never shows a command's or a file's name to someone holding a phone.
///
/// Every reason either program sends is here, and docs/API.md lists them with when each is sent.
/// A client must take a reason it does not know (a later board's) as a refusal it cannot
/// explain: the raw value is carried as text in ``APIMessage/reason`` for that reason, so an
/// unknown one never makes a message unreadable.
public enum ErrorReason: String, CaseIterable, Codable, Sendable {
    // The line itself (the board's reading of it, docs/API.md "Limits"; the web view's too).
    /// Longer than the board's 4096 bytes, or the web view's 1 KiB for a page's message.
    case tooLong = "too-long"
    /// Not UTF-8, not JSON, or a binary WebSocket message.
    case notJSON = "not-json"
    /// JSON, but not an object with a `command` given as text.
    case notACommand = "not-a-command"
    /// A `command` no one knows.
    case unknownCommand = "unknown-command"
    /// A command's argument missing, of the wrong kind, or out of range (a cell not 1–9).
    case badArgument = "bad-argument"
    /// An opponent's name the board does not know.
    case unknownOpponent = "unknown-opponent"

    // The game's refusals (the board's buttons would be refused alike).
    /// The pressed cell holds a mark already.
    case cellTaken = "cell-taken"
    /// The game is over: only a new game goes on.
    case gameOver = "game-over"
    /// The computer moves next.
    case computersTurn = "computers-turn"
    /// Another board plays, and moves next.
    case otherBoardsTurn = "other-boards-turn"
    /// Another board plays, and is not heard playing this game: the game waits for it.
    case waitingForBoard = "waiting-for-board"
    /// The lights were asleep: the press only woke them.
    case wokeUp = "woke-up"
    /// A new game while one is in progress: it must be given up (abandon).
    case gameNotOver = "game-not-over"
    /// The board took the command but nothing came of it.
    case notTaken = "not-taken"
    /// A reset or a lesson of the learner while a game against it is under way: finish it or give it up.
    case learnerPlaying = "learner-playing"
    /// A reset of the learner asked for at a count of games it no longer has (it played a game,
    /// or was reset, since): ask again.
    case learnerChanged = "learner-changed"
    /// `teach` while a lesson is under way: wait for its end, or stop it (`stop-teaching`).
    case learnerTeaching = "learner-teaching"
    /// `status` before the board has shown its first state.
    case notReady = "not-ready"

    // The web view's own.
    /// The web view is for watching only (`web.allow = "watch"`).
    case watchOnly = "watch-only"
    /// `heard` or `seen` from a page: only the network link reports other boards.
    case linkOnly = "link-only"
    /// More commands a second than a page may send.
    case tooManyCommands = "too-many-commands"
    /// Too many commands wait for the board's answers.
    case busy
    /// A command sent while the board cannot be reached (the `web` message says why).
    case boardUnreachable = "board-unreachable"
    /// The board went away before it answered the command.
    case boardWentAway = "board-went-away"

    // The link to a broker's own (tictactoe-network, docs/NETWORK.md).
    /// A command a message on the broker may not send: only presses, new games, giving up, the
    /// opponent and the status come from the network, never the learner's reset or lessons.
    case notOverNetwork = "not-over-network"

    // Why the board cannot be reached, in the web view's `web` message.
    /// The web view has not reached the board yet.
    case connecting
    /// No board listens at the socket: its service is stopped, or not installed.
    case boardNotListening = "board-not-listening"
    /// The web view may not connect to the board's socket (not in its group).
    case boardNotAllowed = "board-not-allowed"
    /// The board closed the connection (it is restarting or stopping).
    case boardClosed = "board-closed"
    /// Any other failure to connect.
    case boardLinkFailed = "board-link-failed"
}
