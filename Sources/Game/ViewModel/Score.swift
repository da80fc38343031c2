import TicTacToe

/// Games won by each side and games drawn, since the program started.
public struct Score: Sendable, Hashable, CustomStringConvertible {
    public var xWins = 0
    public var oWins = 0
    public var draws = 0

    public init(xWins: Int = 0, oWins: Int = 0, draws: Int = 0) {
        self.xWins = xWins
        self.oWins = oWins
        self.draws = draws
    }

    /// The largest count kept: the ``Scoreboard`` holds 32-bit counts, so that the session's
    /// state stays a small plain value. 4,294,967,295 games are over a century at one a second.
    public static let countLimit = Int(UInt32.max)

    /// The score after a finished game; unchanged for a game still in progress. A count stops
    /// at ``countLimit`` rather than overflow (only a forged saved file gets near it).
    public func recording(_ outcome: Outcome) -> Score {
        var next = self
        switch outcome {
        case .won(by: .x, _): next.xWins = Self.increment(xWins)
        case .won(by: .o, _): next.oWins = Self.increment(oWins)
        case .draw: next.draws = Self.increment(draws)
        case .inProgress: break
        }
        return next
    }

    private static func increment(_ count: Int) -> Int { count < countLimit ? count + 1 : count }

    public func wins(for player: Player) -> Int { player == .x ? xWins : oWins }

    public var description: String { "X \(xWins) · O \(oWins) · draws \(draws)" }
}
