import GPIO

/// The groups a board's lines are wired in, each with its own job: the configuration names one
/// key for each, and ``PinMapError`` says which group is at fault.
public enum PinGroup: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case cellButtons, newGameButton, rows, redColumns, greenColumns, xStatus, oStatus

    /// How many lines the group has.
    public var lineCount: Int {
        switch self {
        case .cellButtons: 9
        case .rows, .redColumns, .greenColumns: 3
        case .newGameButton, .xStatus, .oStatus: 1
        }
    }

    /// Whether the group drives LEDs (else it reads buttons).
    public var isOutput: Bool {
        switch self {
        case .cellButtons, .newGameButton: false
        case .rows, .redColumns, .greenColumns, .xStatus, .oStatus: true
        }
    }

    /// The ``PinMap`` property that holds the group: how a message names it when the map was
    /// built in code (the configuration names its keys instead).
    public var description: String {
        switch self {
        case .cellButtons: "cellButtons"
        case .newGameButton: "newGameButton"
        case .rows: "rows"
        case .redColumns: "redColumns"
        case .greenColumns: "greenColumns"
        case .xStatus: "xStatus"
        case .oStatus: "oStatus"
        }
    }
}
