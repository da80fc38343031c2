import TicTacToe

/// The score of each of the board's own pairings: two players, the computer at each level, and
/// the learner. (Other boards' scores are the session's, beside its learner:
/// ``SessionState/score(against:)``.)
///
/// Held inline in 32-bit counts, so that a ``SessionState`` carrying it is a small plain value:
/// the state is copied to every observer of each change, and a copy then moves a few words,
/// where a dictionary would be retained and released (two atomic operations) at every copy.
/// Counts run up to ``Score/countLimit``; a larger one set here is kept as that limit.
public struct Scoreboard: Sendable, Hashable {
    /// xWins, oWins and draws of each pairing, in ``Opponent/allCases`` order.
    private var counts: (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Every pairing at nothing.
    public init() {}

    /// The scores of `scores`; pairings it leaves out, and other boards, are at nothing.
    public init(_ scores: [Opponent: Score]) {
        for (opponent, score) in scores where opponent.remote == nil { self[opponent] = score }
    }

    /// The score against `opponent`; another board's is always nothing here, and setting it
    /// keeps nothing (``SessionState/score(against:)`` holds those).
    public subscript(opponent: Opponent) -> Score {
        get {
            guard opponent.remote == nil else { return Score() }
            return withUnsafeBytes(of: counts) { raw in
                let counts = raw.bindMemory(to: UInt32.self)
                let first = 3 * Self.slot(of: opponent)
                return Score(xWins: Int(counts[first]), oWins: Int(counts[first + 1]), draws: Int(counts[first + 2]))
            }
        }
        set {
            guard opponent.remote == nil else { return }
            withUnsafeMutableBytes(of: &counts) { raw in
                let counts = raw.bindMemory(to: UInt32.self)
                let first = 3 * Self.slot(of: opponent)
                counts[first] = Self.count(newValue.xWins)
                counts[first + 1] = Self.count(newValue.oWins)
                counts[first + 2] = Self.count(newValue.draws)
            }
        }
    }

    /// The pairings that have played a game, and their scores: what a snapshot keeps.
    public var played: [Opponent: Score] {
        var played: [Opponent: Score] = [:]
        for opponent in Opponent.allCases where self[opponent] != Score() { played[opponent] = self[opponent] }
        return played
    }

    public static func == (a: Scoreboard, b: Scoreboard) -> Bool {
        Opponent.allCases.allSatisfy { a[$0] == b[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        for opponent in Opponent.allCases { hasher.combine(self[opponent]) }
    }

    private static func slot(of opponent: Opponent) -> Int {
        switch opponent {
        case .person: 0
        case .computer(let level): level.rawValue
        // Never asked: the subscript keeps no other board's score.
        case .learner, .board: ComputerLevel.allCases.count + 1
        }
    }

    private static func count(_ value: Int) -> UInt32 { UInt32(clamping: value) }
}
