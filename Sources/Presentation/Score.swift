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

    /// The score after a finished game; unchanged for a game still in progress.
    public func recording(_ outcome: Outcome) -> Score {
        var next = self
        switch outcome {
        case .won(by: .x, _): next.xWins += 1
        case .won(by: .o, _): next.oWins += 1
        case .draw: next.draws += 1
        case .inProgress: break
        }
        return next
    }

    public func wins(for player: Player) -> Int { player == .x ? xWins : oWins }

    public var description: String { "X \(xWins) · O \(oWins) · draws \(draws)" }
}
