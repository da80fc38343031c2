/// The learner's results since its boxes were last reset, in order, by tens of games: what its
/// record and its learning curve are drawn from.
///
/// Bounded: the last ``keptTens`` tens are kept (10,000 games); ``games`` counts them all.
public struct LearnerRecord: Sendable, Hashable {
    /// Games won, drawn and lost in one ten (the last may hold fewer than ten).
    public struct Tally: Sendable, Hashable {
        public var won = 0
        public var drew = 0
        public var lost = 0

        public init(won: Int = 0, drew: Int = 0, lost: Int = 0) {
            self.won = won
            self.drew = drew
            self.lost = lost
        }

        public var games: Int { won + drew + lost }
    }

    public static let keptTens = 1000
    /// Each ten of games in order, the oldest kept first.
    public private(set) var tens: [Tally]
    /// Every game since the last reset, kept or not.
    public private(set) var games: Int
    /// Games won, drawn and lost since the last reset, over the kept tens.
    public var total: Tally { Self.sum(tens[...]) }

    /// How many of the latest tens ``latest`` adds up: a hundred games, the window the
    /// benchmark's late loss rate is taken over (docs/BENCHMARKS.md).
    public static let latestTens = 10

    /// Its latest games, about a hundred: the last ``latestTens`` tens, which hold from 91 games
    /// (the latest ten just begun) to 100 once it has played that many, and every game before.
    /// Tells what it knows now, where ``total`` is mostly what it did while it knew little.
    public var latest: Tally { Self.sum(tens.suffix(Self.latestTens)) }

    private static func sum(_ tens: ArraySlice<Tally>) -> Tally {
        tens.reduce(into: Tally()) { sum, ten in
            sum.won += ten.won
            sum.drew += ten.drew
            sum.lost += ten.lost
        }
    }

    public init() {
        tens = []
        games = 0
    }

    /// A record read back: `nil` unless the tens are the ones `games` games leave, as ``add(_:)``
    /// keeps them: every ten but the last holds ten games, the last holds what is left over (one
    /// to ten), and there are as many tens as the games fill, or ``keptTens`` once they fill more.
    public init?(tens: [Tally], games: Int) {
        let counts = [tens.map(\.won), tens.map(\.drew), tens.map(\.lost)].joined()
        guard (0...Int(Int32.max)).contains(games), counts.allSatisfy({ $0 >= 0 }) else { return nil }
        let filled = (games + 9) / 10
        guard tens.count == min(filled, Self.keptTens), tens.dropLast().allSatisfy({ $0.games == 10 }),
              tens.last.map({ $0.games == games - 10 * (filled - 1) }) ?? true else { return nil }
        self.tens = tens
        self.games = games
    }

    mutating func add(_ result: LearnerResult) {
        if tens.last.map({ $0.games == 10 }) ?? true { tens.append(Tally()) }
        let last = tens.count - 1
        switch result {
        case .won: tens[last].won += 1
        case .drew: tens[last].drew += 1
        case .lost: tens[last].lost += 1
        }
        if tens.count > Self.keptTens { tens.removeFirst(tens.count - Self.keptTens) }
        games += 1
    }
}
