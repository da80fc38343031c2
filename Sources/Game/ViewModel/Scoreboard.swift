import TicTacToe

/// The score of each pairing: two players, the computer at each level, the learner, and each
/// other board played.
///
/// The board's own pairings are held inline in 32-bit counts, so that a ``SessionState``
/// carrying it is a small plain value: the state is copied to every observer of each change,
/// and a copy then moves a few words, where a dictionary would be retained and released (two
/// atomic operations) at every copy. Other boards' scores are behind one reference, `nil` until
/// a board has one, copied on write. Counts run up to ``Score/countLimit``; a larger one set
/// here is kept as that limit.
public struct Scoreboard: Sendable, Hashable {
    /// xWins, oWins and draws of each pairing, in ``Opponent/allCases`` order.
    private var counts: (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Every pairing at nothing.
    public init() {}

    /// The scores of `scores`; pairings it leaves out are at nothing.
    public init(_ scores: [Opponent: Score]) {
        for (opponent, score) in scores { self[opponent] = score }
    }

    /// The scores against other boards, by board and mark; `nil` until one is set.
    private var boards: BoardScores?

    public subscript(opponent: Opponent) -> Score {
        get {
            if let remote = opponent.remote { return boards?.scores[remote] ?? Score() }
            return withUnsafeBytes(of: counts) { raw in
                let counts = raw.bindMemory(to: UInt32.self)
                let first = 3 * Self.slot(of: opponent)
                return Score(xWins: Int(counts[first]), oWins: Int(counts[first + 1]), draws: Int(counts[first + 2]))
            }
        }
        set {
            if let remote = opponent.remote {
                setScore(newValue, against: remote)
                return
            }
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
        for (remote, score) in boards?.scores ?? [:] { played[.board(remote)] = score }
        return played
    }

    public static func == (a: Scoreboard, b: Scoreboard) -> Bool {
        Opponent.allCases.allSatisfy { a[$0] == b[$0] } && (a.boards?.scores ?? [:]) == (b.boards?.scores ?? [:])
    }

    public func hash(into hasher: inout Hasher) {
        for opponent in Opponent.allCases { hasher.combine(self[opponent]) }
        hasher.combine(boards?.scores ?? [:])
    }

    private mutating func setScore(_ score: Score, against remote: RemoteBoard) {
        let kept = Score(xWins: Int(Self.count(score.xWins)), oWins: Int(Self.count(score.oWins)), draws: Int(Self.count(score.draws)))
        if boards == nil { boards = BoardScores() } else if !isKnownUniquelyReferenced(&boards) { boards = BoardScores(boards?.scores ?? [:]) }
        boards?.scores[remote] = kept == Score() ? nil : kept
    }

    private static func slot(of opponent: Opponent) -> Int {
        switch opponent {
        case .person: 0
        case .computer(let level): level.rawValue
        case .learner, .board: ComputerLevel.allCases.count + 1
        }
    }

    private static func count(_ value: Int) -> UInt32 { UInt32(clamping: value) }
}

/// Other boards' scores behind one reference (``Scoreboard``), changed only while uniquely
/// referenced.
private final class BoardScores: @unchecked Sendable {
    var scores: [RemoteBoard: Score]

    init(_ scores: [RemoteBoard: Score] = [:]) { self.scores = scores }
}
