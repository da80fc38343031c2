import TestSupport
import Testing
import Lights

@Suite("Frame cells")
struct FrameCellsTests {
    @Test("every colour in every cell reads back as written, and only that cell changes")
    func roundTrip() {
        for index in 0..<9 {
            for color in LEDColor.allCases {
                for background in LEDColor.allCases {
                    var cells = FrameCells(Array(repeating: background, count: 9))
                    cells[index] = color
                    let expected = (0..<9).map { $0 == index ? color : background }
                    #expect(Array(cells) == expected, "cell \(index): \(color) on \(background)")
                }
            }
        }
    }

    @Test("cells compare and hash by their colours; lit means any cell lit")
    func equality() {
        let a: FrameCells = [.red, .off, .off, .off, .green, .off, .off, .off, .amber]
        var b = FrameCells()
        b[0] = .red
        b[4] = .green
        b[8] = .amber
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.isLit && !FrameCells().isLit)
        b[8] = .off
        #expect(a != b)
        #expect(Frame(cells: Array(a), xStatus: true, oStatus: false).cells == a)
        #expect(Frame.dark.isDark && !Frame(cells: a, xStatus: false, oStatus: false).isDark)
        #expect(!Frame(cells: FrameCells(), xStatus: false, oStatus: true).isDark)
    }

    #if compiler(>=6.2)
    @Test("a frame of eight or ten colours is refused with a message", .process)
    func wrongCount() async {
        let eight = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FrameCells(Array(repeating: LEDColor.red, count: 8))
        }
        let message = String(decoding: eight?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("exactly nine cells, not 8"), "\(message)")
        await #expect(processExitsWith: .failure) {
            _ = FrameCells(Array(repeating: LEDColor.red, count: 10))
        }
    }

    @Test("the inlined accessors still check: a cell outside 0...8, or a row or column outside 0...2, stops the program", .process)
    func outsideTheFrame() async {
        let nine = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FrameCells()[9]
        }
        let message = String(decoding: nine?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("no cell 9; cells are 0...8"), "\(message)")
        await #expect(processExitsWith: .failure) { _ = FrameCells().brightness(at: -1) }
        await #expect(processExitsWith: .failure) {
            var cells = FrameCells()
            cells.set(.red, .dim, at: 9)
        }
        // Row 0, column 3 would be cell 3 by arithmetic alone.
        await #expect(processExitsWith: .failure) { _ = Frame.dark[0, 3] }
    }
    #endif

    @Test("brightness reads back per cell; writing a colour shows it full; a dark cell is never dim")
    func brightness() {
        var cells = FrameCells()
        cells.set(.green, .dim, at: 4)
        cells[0] = .red
        #expect(cells.brightness(at: 4) == .dim && cells.brightness(at: 0) == .full && cells[4] == .green)
        #expect(cells.hasDim && !cells.allFull.hasDim && cells.allFull[4] == .green)
        cells[4] = .amber
        #expect(cells.brightness(at: 4) == .full && !cells.hasDim)
        cells.set(.off, .dim, at: 8)
        #expect(cells == [.red, .off, .off, .off, .amber, .off, .off, .off, .off])
    }

    @Test("half reads back apart from dim and full; a cell set to half and then dim is dim; none survives a dark cell or allFull")
    func half() {
        var cells = FrameCells()
        cells.set(.green, .half, at: 8)
        cells.set(.red, .dim, at: 0)
        #expect(cells.brightness(at: 8) == .half && cells.brightness(at: 0) == .dim && cells.hasDim)
        cells.set(.green, .dim, at: 8)
        #expect(cells.brightness(at: 8) == .dim)
        cells.set(.green, .half, at: 8)
        #expect(cells.allFull.brightness(at: 8) == .full && cells.allFull[8] == .green && !cells.allFull.hasDim)
        cells.set(.off, .half, at: 8)
        cells.set(.off, .half, at: 0)
        #expect(cells == FrameCells() && !cells.hasDim)
        #expect(DimCycle(frames: 6).litFrames(of: .half) == 3 && DimCycle(frames: 5).litFrames(of: .half) == 3)
        #expect(DimCycle(frames: 2).litFrames(of: .half) == DimCycle(frames: 2).litFrames(of: .dim))
    }

    @Test("a frame describes dim cells in lower case and a dim status LED as dim; an unlit LED's brightness does not count")
    func dimDescription() {
        var cells = FrameCells()
        cells.set(.green, .dim, at: 2)
        let frame = Frame(cells: cells, xStatus: false, oStatus: true, oStatusBrightness: .dim)
        #expect(frame.description == ". . g\n. . .\n. . .\nX:off O:dim")
        #expect(Frame(cells: cells, xStatus: false, oStatus: false, oStatusBrightness: .dim) == Frame(cells: cells, xStatus: false, oStatus: false))
        #expect(frame != Frame(cells: cells, xStatus: false, oStatus: true))
    }
}
