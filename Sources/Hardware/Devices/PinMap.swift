import GPIO
import Lights
import TicTacToe

/// Which chip line does what: the board's wiring, with the polarity of each group.
///
/// ``standard`` is the default wiring (`Hardware/tictactoe.toml`; the build and its electrical notes: `Hardware/README.md`).
/// ``validated()`` refuses a map the board cannot work with, naming the ``PinGroup`` and line
/// at fault; the configuration turns a group into the key that sets it.
public struct PinMap: Sendable, Hashable {
    /// The nine cell buttons in reading order (top-left first).
    public var cellButtons: [LineOffset]
    public var newGameButton: LineOffset
    public var buttonPolarity: Polarity
    /// Matrix rows, top to bottom: each switches a row's common cathodes to ground.
    public var rows: [LineOffset]
    public var rowPolarity: Polarity
    /// Red and green anode columns, left to right.
    public var redColumns: [LineOffset]
    public var greenColumns: [LineOffset]
    public var columnPolarity: Polarity
    /// The red status LED on X's side and the green one on O's side.
    public var xStatus: LineOffset
    public var oStatus: LineOffset
    public var statusPolarity: Polarity

    public init(
        cellButtons: [LineOffset], newGameButton: LineOffset, buttonPolarity: Polarity = .activeLow,
        rows: [LineOffset], rowPolarity: Polarity = .activeHigh,
        redColumns: [LineOffset], greenColumns: [LineOffset], columnPolarity: Polarity = .activeHigh,
        xStatus: LineOffset, oStatus: LineOffset, statusPolarity: Polarity = .activeHigh
    ) {
        self.cellButtons = cellButtons
        self.newGameButton = newGameButton
        self.buttonPolarity = buttonPolarity
        self.rows = rows
        self.rowPolarity = rowPolarity
        self.redColumns = redColumns
        self.greenColumns = greenColumns
        self.columnPolarity = columnPolarity
        self.xStatus = xStatus
        self.oStatus = oStatus
        self.statusPolarity = statusPolarity
    }

    /// The default wiring (BCM numbers on the 40-pin header). Buttons may use GPIO3 (it has a
    /// fixed pull-up, harmless for a switch to ground); LEDs avoid GPIO2/3. GPIO2, 7 and 8 are spare.
    public static let standard = PinMap(
        cellButtons: [4, 17, 27, 22, 5, 6, 13, 19, 26],
        newGameButton: 3,
        rows: [23, 24, 25],
        redColumns: [9, 10, 11],
        greenColumns: [16, 20, 21],
        xStatus: 12, oStatus: 18)

    /// The button line of a cell.
    public func button(for position: Position) -> LineOffset { cellButtons[position.index] }

    /// All input lines: the nine cells, then new game.
    public var inputOffsets: [LineOffset] { cellButtons + [newGameButton] }

    /// All output lines: rows, red columns, green columns, then the two status LEDs.
    public var outputOffsets: [LineOffset] { rows + redColumns + greenColumns + [xStatus, oStatus] }

    /// Every matrix line (rows and columns) at its off level.
    public var matrixOff: [LineSetting] {
        rows.map { LineSetting($0, rowPolarity.level(active: false)) }
            + (redColumns + greenColumns).map { LineSetting($0, columnPolarity.level(active: false)) }
    }

    /// Every LED line, matrix and status LEDs, at its off level: what a board that stops leaves.
    public var allLEDsOff: [LineSetting] {
        matrixOff + [xStatus, oStatus].map { LineSetting($0, statusPolarity.level(active: false)) }
    }

    /// The lines of `group` (one for a single button or LED).
    public subscript(group: PinGroup) -> [LineOffset] {
        get {
            switch group {
            case .cellButtons: cellButtons
            case .newGameButton: [newGameButton]
            case .rows: rows
            case .redColumns: redColumns
            case .greenColumns: greenColumns
            case .xStatus: [xStatus]
            case .oStatus: [oStatus]
            }
        }
        set {
            switch group {
            case .cellButtons: cellButtons = newValue
            case .newGameButton: if let line = newValue.first { newGameButton = line }
            case .rows: rows = newValue
            case .redColumns: redColumns = newValue
            case .greenColumns: greenColumns = newValue
            case .xStatus: if let line = newValue.first { xStatus = line }
            case .oStatus: if let line = newValue.first { oStatus = line }
            }
        }
    }

    /// Every line with its group, inputs first, in the order of ``PinGroup/allCases``.
    public var assignments: [(group: PinGroup, offset: LineOffset)] {
        PinGroup.allCases.flatMap { group in self[group].map { (group, $0) } }
    }

    /// The colour the cell at `index` (reading order) shows while the LED lines stand at
    /// `levels`: lit in red when its row and its red column are both on, in green likewise.
    /// The one definition of "lit" that the simulation's eye, the virtual machines' LED readings,
    /// the tests and the benchmarks share.
    public func color(ofCell index: Int, at levels: LineLevels) -> LEDColor {
        guard rowPolarity.isActive(levels[rows[index / 3]]) else { return .off }
        return LEDColor(
            red: columnPolarity.isActive(levels[redColumns[index % 3]]),
            green: columnPolarity.isActive(levels[greenColumns[index % 3]]))
    }

    /// ``color(ofCell:at:)`` of every cell, in reading order.
    public func cellColors(at levels: LineLevels) -> [LEDColor] {
        (0..<9).map { color(ofCell: $0, at: levels) }
    }

    /// The header lines this board may use: GPIO2–27.
    public static let headerLines = LineOffset(2)...LineOffset(27)

    /// Lines that must stay free: the HAT EEPROM bus and the serial console.
    public static let reservedLines: [LineOffset: String] = [
        0: "it is the HAT EEPROM bus (ID_SD)", 1: "it is the HAT EEPROM bus (ID_SC)",
        14: "it is the serial console (TXD)", 15: "it is the serial console (RXD)",
    ]

    /// Lines with fixed 1.8 kΩ pull-ups to 3.3 V: fine for buttons, wrong for LED drive.
    public static let pulledUpLines: Set<LineOffset> = [2, 3]

    /// This map if the board can work with it; otherwise the first problem found.
    public func validated() throws(PinMapError) -> PinMap {
        for group in PinGroup.allCases where self[group].count != group.lineCount {
            throw .wrongCount(group, expected: group.lineCount, found: self[group].count)
        }
        var owner: [LineOffset: PinGroup] = [:]
        for (group, offset) in assignments {
            if let reason = Self.reservedLines[offset] { throw .reservedLine(group, offset: offset, reason: reason) }
            guard Self.headerLines.contains(offset) else { throw .notOnHeader(group, offset: offset) }
            if group.isOutput, Self.pulledUpLines.contains(offset) { throw .outputOnPulledUpLine(group, offset: offset) }
            if let first = owner[offset] { throw .lineUsedTwice(offset: offset, first: first, second: group) }
            owner[offset] = group
        }
        return self
    }
}

/// Why a ``PinMap`` was refused. Each message names the group and line and says what to do;
/// ``message(naming:)`` names the group as the caller knows it (a configuration key).
public enum PinMapError: Error, Sendable, Hashable, CustomStringConvertible {
    case wrongCount(PinGroup, expected: Int, found: Int)
    case lineUsedTwice(offset: LineOffset, first: PinGroup, second: PinGroup)
    case reservedLine(PinGroup, offset: LineOffset, reason: String)
    case notOnHeader(PinGroup, offset: LineOffset)
    case outputOnPulledUpLine(PinGroup, offset: LineOffset)

    /// The group the message is about (for a line used twice, the second user).
    public var group: PinGroup {
        switch self {
        case .wrongCount(let group, _, _), .reservedLine(let group, _, _), .notOnHeader(let group, _),
             .outputOnPulledUpLine(let group, _):
            group
        case .lineUsedTwice(_, _, let second):
            second
        }
    }

    public var description: String { message(naming: \.description) }

    /// The message, with each group called what `name` says.
    public func message(naming name: (PinGroup) -> String) -> String {
        switch self {
        case .wrongCount(let group, let expected, let found):
            "\(name(group)) lists \(found) line\(found == 1 ? "" : "s"); it needs exactly \(expected)."
        case .lineUsedTwice(let offset, let first, let second):
            "\(offset) is used twice, by \(name(first)) and by \(name(second)); give each its own line."
        case .reservedLine(let group, let offset, let reason):
            "\(name(group)) uses \(offset), but \(reason); choose another line in GPIO2–27."
        case .notOnHeader(let group, let offset):
            "\(name(group)) uses \(offset), which is not on the 40-pin header; use GPIO2–27."
        case .outputOnPulledUpLine(let group, let offset):
            "\(name(group)) uses \(offset), which has a fixed pull-up resistor and cannot drive an LED properly; use it for a button and move the LED to another line."
        }
    }
}
