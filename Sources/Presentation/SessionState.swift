import TicTacToe

/// Everything a board session is at one moment: the single source of truth the view model's
/// outputs are all derived from.
///
/// Each input is one `mutating` call here, made inside one `modify` of the view model's state
/// property, so an input produces exactly one new state, and so at most one new frame and one
/// new snapshot, never an intermediate one. Pure: no clock, no timers, no I/O (the session
/// runs the timers and calls ``endFlash()``, ``toggleBlink()`` and ``fallAsleep()``).
public struct SessionState: Sendable, Hashable {
    public var board: Board
    /// Who starts the next game.
    public var nextStarter: Player
    public var score: Score
    /// An occupied cell that was just pressed, shown amber.
    public var flashing: Position?
    /// The phase of the end-of-game blink: on or off.
    public var blinkOn: Bool
    /// The lights have gone dark after a long idle spell.
    public var isAsleep: Bool

    /// A session carrying on from `snapshot`, awake.
    public init(snapshot: GameSnapshot) {
        board = snapshot.board
        nextStarter = snapshot.nextStarter
        score = snapshot.score
        flashing = nil
        blinkOn = true
        isAsleep = false
    }

    /// What to save to survive a restart.
    public var snapshot: GameSnapshot { GameSnapshot(board: board, nextStarter: nextStarter, score: score) }

    /// Whether the end-of-game blink runs: the game is over and the lights are on.
    public var isBlinking: Bool { board.isOver && !isAsleep }

    /// Whether a short press of new game starts a new game (a hold always does).
    public var acceptsNewGame: Bool { board.isOver || isAsleep }

    /// A cell was pressed: it wakes the lights, or takes the mover's mark, or flashes amber on
    /// an occupied cell, or is ignored after the end. A move that ends the game scores it and
    /// starts the blink on its bright phase.
    public mutating func press(_ position: Position) -> GameEvent {
        if isAsleep { return wake() }
        guard let mover = board.turn else { return .ignored(position) }
        do {
            board = try board.playing(position)
        } catch {
            flashing = position
            return .refused(position, error)
        }
        flashing = nil
        if board.isOver {
            score = score.recording(board.outcome)
            blinkOn = true
        }
        return .moved(mover, position)
    }

    /// New game was asked for (a short press once over, or a hold): wakes the lights if they
    /// are dark, else starts the next game with the player whose turn it is to start.
    public mutating func startNewGame() -> GameEvent {
        if isAsleep { return wake() }
        let starter = nextStarter
        nextStarter = starter.opponent
        board = Board(starter: starter)
        flashing = nil
        blinkOn = true
        return .started(starter: starter)
    }

    /// The amber flash is over.
    public mutating func endFlash() { flashing = nil }

    /// The blink's next phase.
    public mutating func toggleBlink() { blinkOn.toggle() }

    /// The idle time ran out. Returns `false` if the lights were dark already.
    public mutating func fallAsleep() -> Bool {
        guard !isAsleep else { return false }
        isAsleep = true
        flashing = nil
        return true
    }

    private mutating func wake() -> GameEvent {
        isAsleep = false
        blinkOn = true
        return .wokeUp
    }
}
