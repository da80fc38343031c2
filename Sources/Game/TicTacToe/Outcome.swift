/// Where a game stands.
public enum Outcome: Sendable, Hashable {
    /// Nobody has won and a cell is free; `next` moves now.
    case inProgress(next: Player)
    /// `player` has three in a row along each of `lines` (one, or two completed by one mark).
    case won(by: Player, along: WinningLines)
    /// All nine cells are taken and nobody won.
    case draw
}
