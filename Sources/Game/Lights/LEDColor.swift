/// What one bi-colour (red/green) cell LED shows. Amber is both dies lit at once.
public enum LEDColor: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case off, red, green, amber

    /// The colour with the red and green dies set as given.
    @inlinable
    public init(red: Bool, green: Bool) {
        switch (red, green) {
        case (false, false): self = .off
        case (true, false): self = .red
        case (false, true): self = .green
        case (true, true): self = .amber
        }
    }

    // Inlinable, as the frame's cells are (FrameCells): the row scan asks on every press.
    @inlinable public var isRedLit: Bool { self == .red || self == .amber }
    @inlinable public var isGreenLit: Bool { self == .green || self == .amber }
    @inlinable public var isLit: Bool { self != .off }

    public var description: String {
        switch self {
        case .off: "off"
        case .red: "red"
        case .green: "green"
        case .amber: "amber"
        }
    }
}
