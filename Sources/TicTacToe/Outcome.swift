/// Where a game stands.
public enum Outcome: Sendable, Hashable {
    /// Nobody has won and a cell is free; `next` moves now.
    case inProgress(next: Player)
    /// `player` has three in a row along `line`.
    case won(by: Player, along: WinningLine)
    /// All nine cells are taken and nobody won.
    case draw
}
