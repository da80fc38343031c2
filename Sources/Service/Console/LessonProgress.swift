import BoardProtocol

/// A lesson (the state's `lesson`) in words: the progress bar `tictactoe learner teach` redraws
/// on a terminal, its closing line, and the line `status` gives while one is under way.
///
/// Pure: the numbers come from a board and are not trusted, so each is clamped to what a
/// lesson can hold before it is drawn.
public enum LessonProgress {
    /// `[#########...........]  430/1000 games against level 4 · won 3 · drew 400 · lost 27`,
    /// its bar `width` characters between the brackets.
    public static func bar(_ lesson: ViewState.Lesson, width: Int = 30) -> String {
        let games = max(lesson.games, 1), played = min(max(lesson.played, 0), games)
        let filled = played * width / games
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(played)/\(games) games against level \(lesson.level) · " + results(lesson)
    }

    /// How the lesson went, once it has ended (`nil` while under way).
    public static func summary(_ lesson: ViewState.Lesson) -> String? {
        guard let end = lesson.end else { return nil }
        let taught = "\(lesson.played) \(lesson.played == 1 ? "game" : "games") against the computer at level \(lesson.level) (\(results(lesson)))"
        switch end {
        case "finished": return "Taught the learner \(taught)."
        case "stopped": return "Stopped: taught the learner \(taught) of the \(lesson.games) asked for; what it learnt is kept."
        case "interrupted":
            return "Interrupted after \(taught) of the \(lesson.games) asked for: a game against the learner began at the board, or it was reset. What it learnt is kept."
        default: return "The lesson ended (\(end)) after \(taught)."
        }
    }

    /// `status`'s line while a lesson is under way; `nil` otherwise.
    public static func statusLine(_ lesson: ViewState.Lesson?) -> String? {
        guard let lesson, lesson.end == nil else { return nil }
        return "learner's lesson: \(lesson.played) of \(lesson.games) games against the computer at level \(lesson.level) so far (\(results(lesson)))"
    }

    private static func results(_ lesson: ViewState.Lesson) -> String {
        "won \(lesson.won) · drew \(lesson.drew) · lost \(lesson.lost)"
    }
}
