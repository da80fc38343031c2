import TicTacToe

/// Optional names of the two players, for logs and the terminal: "Alice (X) vs Bob (O)".
public struct PlayerNames: Sendable, Hashable {
    public var x: String?
    public var o: String?

    public init(x: String? = nil, o: String? = nil) {
        self.x = x.flatMap { $0.isEmpty ? nil : $0 }
        self.o = o.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// "Alice (X)" when named, else "X".
    public func label(for player: Player) -> String {
        let name = player == .x ? x : o
        return name.map { "\($0) (\(player))" } ?? "\(player)"
    }

    /// "Alice (X) vs Bob (O)".
    public var matchTitle: String { "\(label(for: .x)) vs \(label(for: .o))" }
}
