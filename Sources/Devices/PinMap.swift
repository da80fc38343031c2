import GPIO
import TicTacToe

/// Which chip line does what: the board's wiring, with the polarity of each group.
///
/// ``standard`` is the default wiring (README, "Default wiring"; `Hardware/`). ``validated()`` refuses a map the board
/// cannot work with, naming the group and line at fault. Group names are the configuration
/// keys a later configuration file uses (`buttons.cells`, `matrix.rows`, …).
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

    /// Every line with the configuration key of its group, inputs first.
    public var assignments: [(key: String, offset: LineOffset)] {
        cellButtons.map { ("buttons.cells", $0) } + [("buttons.new_game", newGameButton)]
            + rows.map { ("matrix.rows", $0) } + redColumns.map { ("matrix.red_columns", $0) }
            + greenColumns.map { ("matrix.green_columns", $0) }
            + [("status.x", xStatus), ("status.o", oStatus)]
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
        let counts: [(String, Int, Int)] = [
            ("buttons.cells", 9, cellButtons.count), ("matrix.rows", 3, rows.count),
            ("matrix.red_columns", 3, redColumns.count), ("matrix.green_columns", 3, greenColumns.count),
        ]
        for (key, expected, found) in counts where expected != found {
            throw .wrongCount(key: key, expected: expected, found: found)
        }
        var owner: [LineOffset: String] = [:]
        let outputKeys: Set<String> = ["matrix.rows", "matrix.red_columns", "matrix.green_columns", "status.x", "status.o"]
        for (key, offset) in assignments {
            if let reason = Self.reservedLines[offset] { throw .reservedLine(key: key, offset: offset, reason: reason) }
            guard Self.headerLines.contains(offset) else { throw .notOnHeader(key: key, offset: offset) }
            if outputKeys.contains(key), Self.pulledUpLines.contains(offset) {
                throw .outputOnPulledUpLine(key: key, offset: offset)
            }
            if let first = owner[offset] { throw .lineUsedTwice(offset: offset, firstKey: first, secondKey: key) }
            owner[offset] = key
        }
        return self
    }
}

/// Why a ``PinMap`` was refused. Each message names the key and line and says what to do.
public enum PinMapError: Error, Sendable, Hashable, CustomStringConvertible {
    case wrongCount(key: String, expected: Int, found: Int)
    case lineUsedTwice(offset: LineOffset, firstKey: String, secondKey: String)
    case reservedLine(key: String, offset: LineOffset, reason: String)
    case notOnHeader(key: String, offset: LineOffset)
    case outputOnPulledUpLine(key: String, offset: LineOffset)

    public var description: String {
        switch self {
        case .wrongCount(let key, let expected, let found):
            "\(key) lists \(found) line\(found == 1 ? "" : "s"); it needs exactly \(expected)."
        case .lineUsedTwice(let offset, let first, let second):
            "\(offset) is used twice, by \(first) and by \(second); give each its own line."
        case .reservedLine(let key, let offset, let reason):
            "\(key) uses \(offset), but \(reason); choose another line in GPIO2–27."
        case .notOnHeader(let key, let offset):
            "\(key) uses \(offset), which is not on the 40-pin header; use GPIO2–27."
        case .outputOnPulledUpLine(let key, let offset):
            "\(key) uses \(offset), which has a fixed pull-up resistor and cannot drive an LED properly; use it for a button and move the LED to another line."
        }
    }
}
