/// Everything the board's lights show at one moment: the nine cells of the matrix (reading
/// order, top-left first) and the two status LEDs (red on X's side, green on O's side).
///
/// The view model produces frames, the LED devices display them, and the simulation decodes
/// the chip's output lines back into frames: one type, so tests compare what was meant with
/// what an eye would see.
public struct Frame: Sendable, Hashable, CustomStringConvertible {
    /// The cells' colours and brightness.
    public var cells: FrameCells
    public var xStatus: Bool
    public var oStatus: Bool
    /// The status LEDs' brightness while lit.
    public var xStatusBrightness: Brightness
    public var oStatusBrightness: Brightness

    public init(
        cells: FrameCells, xStatus: Bool, oStatus: Bool, xStatusBrightness: Brightness = .full, oStatusBrightness: Brightness = .full
    ) {
        self.cells = cells
        self.xStatus = xStatus
        self.oStatus = oStatus
        self.xStatusBrightness = xStatusBrightness
        self.oStatusBrightness = oStatusBrightness
    }

    /// A frame of `cells`, which must hold exactly nine colours (reading order), at full brightness.
    public init(cells: [LEDColor], xStatus: Bool, oStatus: Bool) {
        self.init(cells: FrameCells(cells), xStatus: xStatus, oStatus: oStatus)
    }

    /// Equal when they look the same: an unlit status LED's brightness does not count.
    public static func == (a: Frame, b: Frame) -> Bool {
        a.cells == b.cells && a.xStatus == b.xStatus && a.oStatus == b.oStatus
            && a.shownStatusBrightness == b.shownStatusBrightness
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cells)
        hasher.combine(xStatus)
        hasher.combine(oStatus)
        hasher.combine(shownStatusBrightness.x)
        hasher.combine(shownStatusBrightness.o)
    }

    private var shownStatusBrightness: (x: Brightness, o: Brightness) {
        (xStatus ? xStatusBrightness : .full, oStatus ? oStatusBrightness : .full)
    }

    /// Whether either status LED is lit dim.
    @inlinable
    public var hasDimStatus: Bool { (xStatus && xStatusBrightness == .dim) || (oStatus && oStatusBrightness == .dim) }

    /// Everything off.
    public static let dark = Frame(cells: FrameCells(), xStatus: false, oStatus: false)

    /// The colour of the cell at `row`, `column`; both must be in `0...2` (checked: a column of
    /// 3 is not the next row's first cell).
    @inlinable
    public subscript(row: Int, column: Int) -> LEDColor {
        get { cells[Self.cellIndex(row, column)] }
        set { cells[Self.cellIndex(row, column)] = newValue }
    }

    /// The reading-order index of `row`, `column`; stops the program unless both are in `0...2`.
    @inlinable
    static func cellIndex(_ row: Int, _ column: Int) -> Int {
        guard UInt(bitPattern: row) < 3, UInt(bitPattern: column) < 3 else { noCell(row, column) }
        return row &* 3 &+ column
    }

    @usableFromInline
    static func noCell(_ row: Int, _ column: Int) -> Never {
        fatalError("Frame: no cell at row \(row), column \(column); both are 0...2")
    }

    @inlinable
    public var isDark: Bool { !cells.isLit && !xStatus && !oStatus }

    /// Three lines of `.` (off), `R`, `G`, `A` (lower case when dim, small capitals `ʀ`, `ɢ`, `ᴀ`
    /// when half), then the status LEDs
    /// (`on`, `dim` or `off`): compact and diffable.
    public var description: String {
        let rows = (0..<3).map { row in
            (0..<3).map { column in
                let index = row * 3 + column
                let symbol = cells[index].symbol
                switch cells.brightness(at: index) {
                case .full: return symbol
                case .half: return cells[index].halfSymbol
                case .dim: return symbol.lowercased()
                }
            }.joined(separator: " ")
        }
        func status(_ on: Bool, _ brightness: Brightness) -> String { on ? (brightness == .dim ? "dim" : "on") : "off" }
        return rows.joined(separator: "\n") + "\nX:\(status(xStatus, xStatusBrightness)) O:\(status(oStatus, oStatusBrightness))"
    }
}

extension LEDColor {
    /// One character: `.` off, `R` red, `G` green, `A` amber.
    public var symbol: String {
        switch self {
        case .off: "."
        case .red: "R"
        case .green: "G"
        case .amber: "A"
        }
    }

    /// One character at half brightness: the small capital of ``symbol``.
    public var halfSymbol: String {
        switch self {
        case .off: "."
        case .red: "ʀ"
        case .green: "ɢ"
        case .amber: "ᴀ"
        }
    }
}
