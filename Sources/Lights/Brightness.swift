/// How bright a lit LED shows: at full brightness, or dim — lit only one frame in
/// ``dimFrames`` of the scan, so that marks differ in brightness as well as colour (for players
/// who cannot tell red from green).
public enum Brightness: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case full, dim

    /// A dim LED is lit in one frame of this many, and dark in the others.
    ///
    /// Four: bright and dim then differ by a factor the eye reads at a glance (perceived
    /// brightness goes roughly as the square root of the light, so a quarter looks about half as
    /// bright), while at the default row period a dim LED is still lit 167 times a second.
    public static let dimFrames = 4

    /// The share of frames in which an LED of this brightness is lit.
    public var duty: Double { self == .full ? 1 : 1 / Double(Self.dimFrames) }

    public var description: String { self == .full ? "full" : "dim" }
}
