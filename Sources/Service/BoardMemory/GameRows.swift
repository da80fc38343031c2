import BoardProtocol

/// How the database's rows spell what they hold: short text a person can read with `sqlite3`,
/// parsed strictly on the way back (a value that does not parse makes the database unusable,
/// never a half-read game).
enum RowText {
    /// Nine cells in reading order, each "X", "O" or "" (``SavedState``'s cells) as nine of
    /// `X`, `O` and `.`.
    static func cells(_ cells: [String]) -> String {
        String(cells.map { $0.isEmpty ? "." : Character($0) })
    }

    static func cells(_ text: String) -> [String]? {
        let cells = text.map { $0 == "." ? "" : String($0) }
        return cells.count == 9 && cells.allSatisfy({ ["", "X", "O"].contains($0) }) ? cells : nil
    }

    /// Whole numbers, comma-separated: a box's beads, a ten's tally.
    static func numbers(_ numbers: [Int]) -> String { numbers.map(String.init).joined(separator: ",") }

    static func numbers(_ text: String) -> [Int]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in part.utf8.count <= 10 && part.allSatisfy(\.isASCII) ? Int(part) : nil }
        return numbers.count == parts.count && numbers.allSatisfy({ $0 >= 0 }) ? numbers : nil
    }

    /// The learner's tens, oldest first, as `won,drew,lost` separated by `;`.
    static func tens(_ tens: [[Int]]) -> String { tens.map(numbers).joined(separator: ";") }

    static func tens(_ text: String) -> [[Int]]? {
        guard !text.isEmpty else { return [] }
        let tens = text.split(separator: ";", omittingEmptySubsequences: false).compactMap { numbers(String($0)) }
        return tens.count == text.split(separator: ";", omittingEmptySubsequences: false).count ? tens : nil
    }

    /// A game's moves in order, space-separated, each as player, cell and time: `X5@2026-11-23T22:41:05Z`.
    static func moves(_ moves: [PlayedGame.Move]) -> String {
        moves.map { "\($0.player)\($0.cell)@\($0.at)" }.joined(separator: " ")
    }

    static func moves(_ text: String) -> [PlayedGame.Move]? {
        let parts = text.split(separator: " ")
        let moves = parts.compactMap { part -> PlayedGame.Move? in
            guard let at = part.firstIndex(of: "@"), part.distance(from: part.startIndex, to: at) == 2,
                  let cell = part.dropFirst().first?.wholeNumberValue else { return nil }
            return PlayedGame.Move(player: String(part.prefix(1)), cell: cell, at: String(part[part.index(after: at)...]))
        }
        return moves.count == parts.count ? moves : nil
    }
}
