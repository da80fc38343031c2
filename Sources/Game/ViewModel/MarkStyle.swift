import Lights
import TicTacToe

/// How the lights tell X's marks from O's.
public enum MarkStyle: String, Sendable, Hashable, CaseIterable {
    /// Red and green only.
    case colour
    /// Red and green, and O's marks and status LED dim (``Brightness/dim``): readable by a
    /// player who sees no colour.
    case colourAndBrightness = "colour-and-brightness"

    /// How every entry point shows marks unless told otherwise: readable without colour.
    public static let standard = MarkStyle.colourAndBrightness

    /// How bright `player`'s marks and status LED show.
    public func brightness(of player: Player) -> Brightness {
        self == .colourAndBrightness && player == .o ? .dim : .full
    }
}
