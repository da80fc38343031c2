import Basics
import GPIO
import Lights

/// What the matrix scan writes, worked out once per change of the cells: for each row, its six
/// column levels and the row switched on; and the blank write that precedes each row.
///
/// Pure and allocation-free after `init`: ``show(_:)`` rewrites the prepared writes in place,
/// so neither a new frame nor a scan step allocates. The ``LEDMatrix`` device and the
/// benchmarks' imperative baseline both use it.
public struct RowScan: Sendable {
    /// Every matrix line off.
    public let blank: [LineSetting]
    /// The write that lights each row, top row first: red and green of each column, then the row.
    public private(set) var rows: [[LineSetting]]
    /// Whether any cell is lit.
    public var isLit: Bool { cells.isLit }
    /// The cells the writes were prepared for.
    private var cells = FrameCells()
    private let pins: PinMap

    public init(pins: PinMap) {
        require(pins.rows.count == 3 && pins.redColumns.count == 3 && pins.greenColumns.count == 3,
                     "RowScan: validate the pin map first (3 rows, 3 red and 3 green columns)")
        self.pins = pins
        blank = pins.matrixOff
        rows = (0..<3).map { row in
            (0..<3).flatMap { column in
                [LineSetting(pins.redColumns[column], pins.columnPolarity.level(active: false)),
                 LineSetting(pins.greenColumns[column], pins.columnPolarity.level(active: false))]
            } + [LineSetting(pins.rows[row], pins.rowPolarity.level(active: true))]
        }
    }

    /// Prepares the writes for `cells` (reading order).
    public mutating func show(_ cells: FrameCells) {
        self.cells = cells
        for row in 0..<3 {
            for column in 0..<3 {
                let color = cells[row * 3 + column]
                rows[row][2 * column].level = pins.columnPolarity.level(active: color.isRedLit)
                rows[row][2 * column + 1].level = pins.columnPolarity.level(active: color.isGreenLit)
            }
        }
    }
}
