import ViewModel
import TicTacToe

/// What a ``MonochromeEye`` read of the board over a stretch of time: each cell's appearance,
/// and the headlines its status LEDs and matrix show: one, or the two the LEDs show alike (O to
/// move, and the computer thinking about O's move).
public struct LEDReading: Sendable, Hashable, CustomStringConvertible {
    public var cells: [CellAppearance]
    public var headlines: Set<Headline>

    public init(cells: [CellAppearance], headlines: Set<Headline>) {
        self.cells = cells
        self.headlines = headlines
    }

    /// Whether this reading is of `appearance`: the same cells, and its headline among those read.
    public func shows(_ appearance: Appearance) -> Bool {
        cells == appearance.cells && headlines.contains(appearance.headline)
    }

    public var description: String {
        "\(headlines.map(\.name).sorted().joined(separator: " or ")): \(cells.map(\.name).joined(separator: " "))"
    }
}

extension MonochromeEye {
    /// The cells under `headline`, each from the table's light nearest to the cell's light among
    /// those a cell can show under that headline (as a person who knows the game is over does
    /// not take a blinking cell for the learner's beads): the one appearance that lights that
    /// way; a refused press's by the mark remembered under it.
    func cells(seen: [SeenLight], under headline: Headline, memory: Memory) -> Result<[CellAppearance], Misreading> {
        if FrameRenderer.isDark(headline) {
            return seen.allSatisfy({ $0.pattern == nil }) ? .success(memory.cells) : .failure(Misreading("a cell is lit"))
        }
        let possible = cellLights.filter { Self.canShow($0.cell, under: headline) }
        let lights = Set(possible.map(\.light))
        var cells: [CellAppearance] = []
        for (index, light) in seen.enumerated() {
            let key = nearest(light, led: index, among: lights)
            let fits = possible.filter { $0.light == key }.map(\.cell)
            let remembered = memory.cells[index].mark
            let chosen = fits.count > 1 ? fits.filter { $0.mark == remembered } : fits
            guard chosen.count == 1, let cell = chosen.first else {
                return .failure(Misreading("cell \(index + 1) could be any of \(fits.map(\.name))"))
            }
            cells.append(cell)
        }
        if case .choosingOpponent(let opponent) = headline, cells != Appearance.offering(opponent) {
            return .failure(Misreading("the cells offer another opponent"))
        }
        // A win blinks its line: a board of steady marks under a blinking status LED has none
        // (it waits for the other board).
        if case .won = headline, !cells.contains(where: { if case .winning = $0 { true } else { false } }) {
            return .failure(Misreading("no line blinks"))
        }
        return .success(cells)
    }

    /// Whether a cell can show `cell` under `headline`, as a person knows the game: the choice of
    /// opponent offers players; a win shows winning marks and others; a draw, drawn ones; a game
    /// in play, marks and refused presses, and the learner's beads while it thinks; waiting for
    /// the other board, marks and refused presses.
    static func canShow(_ cell: CellAppearance, under headline: Headline) -> Bool {
        switch (cell, headline) {
        case (.empty, _): true
        case (.offered, .choosingOpponent): true
        case (.mark, .won), (.winning, .won): true
        case (.drawn, .draw): true
        case (.mark, .toMove), (.mark, .thinking), (.refused, .toMove), (.refused, .thinking): true
        case (.mark, .waitingForBoard), (.refused, .waitingForBoard): true
        case (.beads, .thinking): true
        default: false
        }
    }
}
