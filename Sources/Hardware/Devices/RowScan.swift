import Basics
import GPIO
import Lights

/// What the board's lights write, worked out once per change of the frame: for each row, its
/// six column levels, the row switched on and the two status LEDs, once with every lit LED on,
/// once with the dim ones off and once with the half ones off too; the blank write that precedes each row; and the one write
/// of a board that needs no scan (twice: as shown, and with dim status LEDs dark, the two
/// halves of their pulse when no cell is lit).
///
/// A dim LED (``Brightness/dim``) is lit in the first frame of every ``DimCycle`` and dark in
/// the others, a half one in the cycle's first ``DimCycle/litFrames(of:)`` frames (the scan
/// counts the frames): the duty is part of the row writes, so dimming costs no write and no
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
    /// The same in the frames that leave dim LEDs dark and light half ones.
    public private(set) var halfRows: [[LineSetting]]
    /// The same in the frames that leave dim and half LEDs dark.
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
    /// Whether the frame has an LED lit below full, cell or status.
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
    /// The frames of each cycle that light half LEDs (the first ones).
    private let halfFrames: Int

    /// - Parameter dimCycle: the cycle the scan counts frames in (the board's settings choose it).
    public init(pins: PinMap, dimCycle: DimCycle = .standard) {
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
        halfRows = rows.map { $0.map { $0 } }
        halfFrames = dimCycle.litFrames(of: .half)
        still = pins.matrixOff + status
        stillDimDark = pins.matrixOff + status
        columnLevels = (pins.columnPolarity.level(active: false), pins.columnPolarity.level(active: true))
        statusLevels = (pins.statusPolarity.level(active: false), pins.statusPolarity.level(active: true))
    }

    /// The write that lights `row` in frame `frame` of the dim cycle (`0..<DimCycle.frames`;
    /// dim LEDs are lit in frame 0, half ones in the first half).
    public func write(row: Int, frame: Int) -> [LineSetting] {
        frame == 0 ? rows[row] : frame < halfFrames ? halfRows[row] : dimDarkRows[row]
    }

    /// Prepares the writes for `frame`. On every press: each row's three writes are filled
    /// through their buffers, with no uniqueness or bounds check per line.
    public mutating func show(_ frame: Frame) {
        self.frame = frame
        let cells = frame.cells, levels = (column: columnLevels, status: statusLevels), status = statusLevels
        let x = (on: frame.xStatus, dimDark: frame.xStatus && frame.xStatusBrightness == .full)
        let o = (on: frame.oStatus, dimDark: frame.oStatus && frame.oStatusBrightness == .full)
        for row in 0..<3 {
            Self.fill(&rows[row], row: row, of: cells, dimmest: .dim, status: (x.on, o.on), levels: levels)
            Self.fill(&halfRows[row], row: row, of: cells, dimmest: .half, status: (x.dimDark, o.dimDark), levels: levels)
            Self.fill(&dimDarkRows[row], row: row, of: cells, dimmest: .full, status: (x.dimDark, o.dimDark), levels: levels)
        }
        still[statusInStill.x].level = x.on ? status.on : status.off
        still[statusInStill.o].level = o.on ? status.on : status.off
        stillDimDark[statusInStill.x].level = x.dimDark ? status.on : status.off
        stillDimDark[statusInStill.o].level = o.dimDark ? status.on : status.off
        needsScan = cells.isLit
        needsPulse = !cells.isLit && frame.hasDimStatus
        hasDim = cells.hasDim || frame.hasDimStatus
    }

    /// Fills one row's write: each die on when its cell's colour lights it at `dimmest` or
    /// brighter, and the status LEDs on as given.
    private static func fill(
        _ write: inout [LineSetting], row: Int, of cells: FrameCells, dimmest: Brightness, status lit: (x: Bool, o: Bool),
        levels: (column: (off: LineLevel, on: LineLevel), status: (off: LineLevel, on: LineLevel))
    ) {
        let least = rank(dimmest)
        write.withUnsafeMutableBufferPointer { write in
            for index in 0..<3 {
                let color = cells[row * 3 + index], shown = rank(cells.brightness(at: row * 3 + index)) >= least
                write[2 * index].level = color.isRedLit && shown ? levels.column.on : levels.column.off
                write[2 * index + 1].level = color.isGreenLit && shown ? levels.column.on : levels.column.off
            }
            write[statusInRow.x].level = lit.x ? levels.status.on : levels.status.off
            write[statusInRow.o].level = lit.o ? levels.status.on : levels.status.off
        }
    }

    /// Brightness in order: dim, half, full.
    private static func rank(_ brightness: Brightness) -> Int {
        switch brightness {
        case .dim: 0
        case .half: 1
        case .full: 2
        }
    }
}
