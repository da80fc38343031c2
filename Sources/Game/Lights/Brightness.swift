/// How bright a lit LED shows: at full brightness, dim — lit only one frame of each
/// ``DimCycle`` of the scan, so that marks differ in brightness as well as colour (for players
/// who cannot tell red from green) — or half, lit in half the cycle's frames (rounded up): the
/// step between, for the learner's beads. How long the cycle is comes from the LED part
/// (``DimCycle/init(for:)``), so the brightness itself is only which of the three.
public enum Brightness: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case full, half, dim

    public var description: String {
        switch self {
        case .full: "full"
        case .half: "half"
        case .dim: "dim"
        }
    }
}
