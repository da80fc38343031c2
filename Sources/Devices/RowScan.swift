import Basics
import GPIO
import Lights

/// What the board's lights write, worked out once per change of the frame: for each row, its
/// six column levels, the row switched on and the two status LEDs, once with every lit LED on
/// and once with the dim ones off; the blank write that precedes each row; and the one write
/// of a board that needs no scan (twice: as shown, and with dim status LEDs dark, the two
/// halves of their pulse when no cell is lit).
///
/// A dim LED (``Brightness/dim``) is lit in the first frame of every ``DimCycle`` and dark in
/// the others (the scan counts the frames): its duty is part of the row writes, so dimming costs no write and no
/// wake-up of its own while the matrix is scanned.
///
/// Pure and allocation-free after `init`: ``show(_:)`` rewrites the prepared writes in place,
/// so neither a new frame nor a scan step allocates. The ``LEDBoard`` device and the
/// benchmarks' imperative baseline both use it.
public struct RowScan: Sendable {
    /// Every matrix line off; the status LEDs untouched.
    public let blank: [LineSetting]
    /// The write that lights each row, top row first, in a frame that lights dim LEDs: red and
    /// green of each column, the row, then the X and O status LEDs.
    public private(set) var rows: [[LineSetting]]
    /// The same in the frames that leave dim LEDs dark.
    public private(set) var dimDarkRows: [[LineSetting]]
    /// The matrix off and the status LEDs as shown: the one write of a frame that needs no scan,
    /// and the lit part of a pulse.
    public private(set) var still: [LineSetting]
    /// The same with dim status LEDs dark: the dark part of a pulse.
    public private(set) var stillDimDark: [LineSetting]
    /// Whether the frame needs the row scan: a cell lit.
    public private(set) var needsScan = false
    /// Whether the status LEDs need a pulse of their own: one lit dim and no cell lit (with a
    /// cell lit, the row scan's writes carry them).
    public private(set) var needsPulse = false
    /// Whether the frame has a dim LED lit, cell or status.
    public private(set) var hasDim = false
    /// The frame the writes were prepared for.
    public private(set) var frame = Frame.dark
    /// Where the status LEDs are in a row's write (after six columns and the row) and in the still
    /// write (after every matrix line).
    private static let statusInRow = (x: 7, o: 8)
    private var statusInStill: (x: Int, o: Int) { (still.count - 2, still.count - 1) }
    /// The off and on levels of a column and of a status LED, looked up once.
    private let columnLevels: (off: LineLevel, on: LineLevel)
    private let statusLevels: (off: LineLevel, on: LineLevel)

    public init(pins: PinMap) {
        require(pins.rows.count == 3 && pins.redColumns.count == 3 && pins.greenColumns.count == 3,
                "RowScan: validate the pin map first (3 rows, 3 red and 3 green columns)")
        blank = pins.matrixOff
        let status = [LineSetting(pins.xStatus, pins.statusPolarity.level(active: false)),
                      LineSetting(pins.oStatus, pins.statusPolarity.level(active: false))]
        rows = (0..<3).map { row in
            (0..<3).flatMap { column in
                [LineSetting(pins.redColumns[column], pins.columnPolarity.level(active: false)),
                 LineSetting(pins.greenColumns[column], pins.columnPolarity.level(active: false))]
            } + [LineSetting(pins.rows[row], pins.rowPolarity.level(active: true))] + status
        }
        // Each row built afresh (`Array(row)` would share its buffer): a shared buffer is copied
        // when first written, and a build of the benchmarks was seen copying on every frame.
        dimDarkRows = rows.map { $0.map { $0 } }
        still = pins.matrixOff + status
        stillDimDark = pins.matrixOff + status
        columnLevels = (pins.columnPolarity.level(active: false), pins.columnPolarity.level(active: true))
        statusLevels = (pins.statusPolarity.level(active: false), pins.statusPolarity.level(active: true))
    }

    /// The write that lights `row` in frame `frame` of the dim cycle (`0..<DimCycle.frames`;
    /// dim LEDs are lit in frame 0).
    public func write(row: Int, frame: Int) -> [LineSetting] {
        frame == 0 ? rows[row] : dimDarkRows[row]
    }

    /// Prepares the writes for `frame`. On every press: each row's two writes are filled through
    /// their buffers, with no uniqueness or bounds check per line.
    public mutating func show(_ frame: Frame) {
        self.frame = frame
        let cells = frame.cells, column = columnLevels, status = statusLevels
        let x = (on: frame.xStatus, dimDark: frame.xStatus && frame.xStatusBrightness == .full)
        let o = (on: frame.oStatus, dimDark: frame.oStatus && frame.oStatusBrightness == .full)
        for row in 0..<3 {
            rows[row].withUnsafeMutableBufferPointer { lit in
                dimDarkRows[row].withUnsafeMutableBufferPointer { dark in
                    for index in 0..<3 {
                        let color = cells[row * 3 + index], full = cells.brightness(at: row * 3 + index) == .full
                        lit[2 * index].level = color.isRedLit ? column.on : column.off
                        lit[2 * index + 1].level = color.isGreenLit ? column.on : column.off
                        dark[2 * index].level = color.isRedLit && full ? column.on : column.off
                        dark[2 * index + 1].level = color.isGreenLit && full ? column.on : column.off
                    }
                    lit[Self.statusInRow.x].level = x.on ? status.on : status.off
                    lit[Self.statusInRow.o].level = o.on ? status.on : status.off
                    dark[Self.statusInRow.x].level = x.dimDark ? status.on : status.off
                    dark[Self.statusInRow.o].level = o.dimDark ? status.on : status.off
                }
            }
        }
        still[statusInStill.x].level = x.on ? status.on : status.off
        still[statusInStill.o].level = o.on ? status.on : status.off
        stillDimDark[statusInStill.x].level = x.dimDark ? status.on : status.off
        stillDimDark[statusInStill.o].level = o.dimDark ? status.on : status.off
        needsScan = cells.isLit
        needsPulse = !cells.isLit && frame.hasDimStatus
        hasDim = cells.hasDim || frame.hasDimStatus
    }
}
