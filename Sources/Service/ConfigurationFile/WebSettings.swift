/// The web view's settings, the `[web]` table: read by `tictactoe-web`, not by the board.
/// Their keys, and how each is read, are in ``WebSettings/Key``.
public struct WebSettings: Sendable, Hashable {
    /// Where the web view listens: every interface, port 8080.
    public var listen = ListenAddress(host: "*", port: 8080)
    public var allow = WebAccess.play
    /// Names the board is reached by beyond its own (a router's DNS name, say).
    public var hosts: [String] = []

    public init() {}
}

/// Whether pages may change the game.
public enum WebAccess: String, Sendable, Hashable, CaseIterable {
    /// Pages press cells, start games and choose the opponent.
    case play
    /// Pages only watch.
    case watch
}
