/// How bright a lit LED shows: at full brightness, or dim — lit only one frame of each
/// ``DimCycle`` of the scan, so that marks differ in brightness as well as colour (for players
/// who cannot tell red from green). How long the cycle is comes from the LED part
/// (``DimCycle/init(for:)``), so the brightness itself is only which of the two.
public enum Brightness: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case full, dim

    public var description: String { self == .full ? "full" : "dim" }
}
