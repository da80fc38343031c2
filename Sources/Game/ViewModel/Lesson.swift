import Matchboxes
import TicTacToe

/// The learner taught on purpose (the board's API's `teach`): a number of whole games against
/// the computer at a level, the learner playing O and each side starting every other game,
/// played out a few at a time on the game's scheduler so that the board stays live (its lights,
/// its buttons, its API) while the learner learns; each step's learning saved as a game's is.
///
/// The games teach the learner and go in its record; they are no one's games at the board, so
/// they count in no score and no history.
public struct Lesson: Sendable, Hashable {
    /// How a lesson ended.
    public enum End: String, Sendable, Hashable {
        /// Every game asked for was played.
        case finished
        /// Stopped on purpose (`stop-teaching`, or Ctrl-C in `tictactoe learner teach`).
        case stopped
        /// A game against the learner began at the board, or the learner was reset: the lesson
        /// gives way (what it taught so far is kept).
        case interrupted
    }

    /// The games asked for.
    public let games: Int
    /// The computer's level in them.
    public let against: ComputerLevel
    /// The games played so far, and the learner's results in them.
    public internal(set) var played = 0
    public internal(set) var results = LearnerRecord.Tally()
    /// How it ended; `nil` while under way. An ended lesson stays in the state, for the views to
    /// say how it went, until the next one.
    public internal(set) var end: End?
    /// The learner it teaches, by its resets when the lesson began: a reset ends the lesson.
    let learnerResets: Int

    /// The most games one lesson plays: ten times the curves of docs/BENCHMARKS.md, and at
    /// least 20 s at the pace below (2,000 steps), plus the games' own time.
    public static let mostGames = 10_000
    /// Games played in one step, and the time between steps: the loop's other work (the LED
    /// scan above all: a long step was seen to make O's dim marks drop out) waits at most one
    /// step.
    public static let gamesPerStep = 5
    public static let pace = Duration.milliseconds(10)

    public var isUnderWay: Bool { end == nil }
}

/// What came of asking for a lesson.
public enum LessonStart: Sendable, Hashable {
    case started
    /// A game against the learner is under way (``SessionState/learnerInGame``).
    case learnerPlaying
    /// Another lesson is under way.
    case underWay
    /// Not a count of games from 1 to ``Lesson/mostGames``.
    case badCount
}

extension SessionState {
    /// Whether a lesson is under way.
    public var teaching: Bool { lesson?.isUnderWay ?? false }

    /// A lesson of `games` games against the computer at `level` begins, unless a game against
    /// the learner is under way (the lesson would change the boxes that game draws from) or
    /// another lesson is.
    mutating func beginLesson(games: Int, against level: ComputerLevel) -> LessonStart {
        guard (1...Lesson.mostGames).contains(games) else { return .badCount }
        if teaching { return .underWay }
        if learnerInGame { return .learnerPlaying }
        lesson = Lesson(games: games, against: level, learnerResets: learner.resets)
        return .started
    }

    /// The lesson's next step: up to ``Lesson/gamesPerStep`` games, or its end when a game
    /// against the learner began or the learner was reset meanwhile. Whether it goes on.
    mutating func teachStep(against computer: inout ComputerPlayer<SeededRandom>, using random: inout SeededRandom) -> Bool {
        guard var lesson, lesson.isUnderWay else { return false }
        defer { self.lesson = lesson }
        guard !learnerInGame, learner.resets == lesson.learnerResets else {
            lesson.end = .interrupted
            return false
        }
        computer.level = lesson.against
        var taught = learner
        for _ in 0..<min(Lesson.gamesPerStep, lesson.games - lesson.played) {
            let starter: Player = lesson.played % 2 == 0 ? .x : .o
            switch TrainingGame.play(&taught, against: &computer, starter: starter, using: &random) {
            case .won: lesson.results.won += 1
            case .drew: lesson.results.drew += 1
            case .lost: lesson.results.lost += 1
            }
            lesson.played += 1
        }
        learner = taught
        if lesson.played == lesson.games { lesson.end = .finished }
        return lesson.isUnderWay
    }

    /// Ends the lesson under way, keeping what it taught; `false` when none was.
    mutating func stopLesson() -> Bool {
        guard teaching else { return false }
        lesson?.end = .stopped
        return true
    }
}
