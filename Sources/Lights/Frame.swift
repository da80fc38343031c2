/// Everything the board's lights show at one moment: the nine cells of the matrix (reading
/// order, top-left first) and the two status LEDs (red on X's side, green on O's side).
///
/// The view model produces frames, the LED devices display them, and the simulation decodes
/// the chip's output lines back into frames: one type, so tests compare what was meant with
/// what an eye would see.
public struct Frame: Sendable, Hashable, CustomStringConvertible {
    public var cells: FrameCells
    public var xStatus: Bool
    public var oStatus: Bool

    public init(cells: FrameCells, xStatus: Bool, oStatus: Bool) {
        self.cells = cells
        self.xStatus = xStatus
        self.oStatus = oStatus
    }

    /// A frame of `cells`, which must hold exactly nine colours (reading order).
    public init(cells: [LEDColor], xStatus: Bool, oStatus: Bool) {
        self.init(cells: FrameCells(cells), xStatus: xStatus, oStatus: oStatus)
    }

    /// Everything off.
    public static let dark = Frame(cells: FrameCells(), xStatus: false, oStatus: false)

    /// The colour of the cell at `row`, `column` (both `0...2`).
    public subscript(row: Int, column: Int) -> LEDColor {
        get { cells[row * 3 + column] }
        set { cells[row * 3 + column] = newValue }
    }

    public var isDark: Bool { !cells.isLit && !xStatus && !oStatus }

    /// Three lines of `.` (off), `R`, `G`, `A`, then the status LEDs: compact and diffable.
    public var description: String {
        let rows = (0..<3).map { row in
            (0..<3).map { column in self[row, column].symbol }.joined(separator: " ")
        }
        return rows.joined(separator: "\n") + "\nX:\(xStatus ? "on" : "off") O:\(oStatus ? "on" : "off")"
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
}
