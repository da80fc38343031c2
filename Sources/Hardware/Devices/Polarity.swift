import GPIO

/// Which level means "on" for a group of lines: pressed for a button, lit for an LED line.
public enum Polarity: String, Sendable, Hashable, CaseIterable {
    /// High is on: an LED column through a resistor, an NPN row switch's base.
    case activeHigh = "active-high"
    /// Low is on: a button to ground with a pull-up.
    case activeLow = "active-low"

    /// The level that means `active`.
    public func level(active: Bool) -> LineLevel {
        LineLevel(active == (self == .activeHigh))
    }

    /// Whether `level` means on.
    public func isActive(_ level: LineLevel) -> Bool {
        level.isHigh == (self == .activeHigh)
    }
}
