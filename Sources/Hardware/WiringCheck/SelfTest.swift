import Basics
import Devices
import GPIO
import Lights
import Reactive
import TicTacToe

/// Walks a builder through the board: every cell red, green and amber, the two brightness levels
/// and X's mark beside O's (when the marks use brightness), each status LED, then every button
/// in order, and names the wiring fault behind each wrong answer: a button wired
/// to another cell's line, a button stuck down, a line that never changes, a dead row or
/// column, swapped rows, columns or colours.
///
/// It drives the real device layer (``LEDBoard``, ``ButtonPad``) on the real
/// chip; only the questions go through the ``SelfTestOperator``.
///
/// The check uses the board's own configuration: its pin map, its debounce timings (a button
/// that the game would read is read alike here), its scan row period, whether O's marks are
/// dim and how dim (the ``DimCycle`` its LEDs' figures choose).
///
/// X's mark beside O's is where a maker checks those figures on the real LEDs: brightness
/// alone must tell X (red, full) from O (green, dim), whatever the datasheet said. When it does
/// not, the finding names the configuration keys to tune (``intensityKeys``).
public struct SelfTest: Sendable {
    public let pins: PinMap
    public let buttons: ButtonTimings
    public let rowPeriod: Duration
    /// Whether the board shows marks at two brightness levels, which must then look different.
    public let dimMarks: Bool
    /// How dim a dim LED is: the board's, chosen from its LEDs' figures.
    public let dimCycle: DimCycle
    /// The configuration keys of the red and green dies' intensities, as the maker's file
    /// names them: what to change when X and O do not look apart.
    public let intensityKeys: (red: String, green: String)
    public let buttonTimeout: Duration

    public init(
        pins: PinMap, buttons: ButtonTimings, rowPeriod: Duration, dimMarks: Bool, dimCycle: DimCycle = .standard,
        intensityKeys: (red: String, green: String) = ("the red intensity", "the green intensity"), buttonTimeout: Duration = .seconds(20)
    ) {
        self.pins = pins
        self.buttons = buttons
        self.rowPeriod = rowPeriod
        self.dimMarks = dimMarks
        self.dimCycle = dimCycle
        self.intensityKeys = intensityKeys
        self.buttonTimeout = buttonTimeout
    }

    /// Checks the inputs only, with nobody at the board: a button that reads pressed at rest is
    /// stuck down or shorted to ground. Returns the faults found.
    public func checkInputsAtRest(chip: any GPIOChip, scheduler: any Scheduler) throws(GPIOError) -> [String] {
        let pad = try ButtonPad(chip: chip, pins: pins, timings: buttons, scheduler: scheduler)
        defer { pad.release() }
        return stuckButtons(pad)
    }

    /// The whole walk-through. Returns the faults found (empty: the board is right). Throws a
    /// ``GPIOError`` when the lines cannot be had, or ``NoAnswer`` when the operator cannot
    /// answer; either way every LED is off and every line released when it returns. `stop`
    /// ends it from another thread (a signal).
    public func run(
        chip: any GPIOChip, scheduler: any Scheduler, operator person: any SelfTestOperator, stop: SelfTestStop = SelfTestStop()
    ) throws -> [String] {
        let outputs = try chip.requestOutputs(OutputConfiguration(
            offsets: pins.outputOffsets, initialLevel: .low, consumer: "tictactoe-selftest"))
        let pad: ButtonPad
        do { pad = try ButtonPad(chip: chip, pins: pins, timings: buttons, scheduler: scheduler) } catch {
            outputs.release()
            throw error
        }
        let lights = LEDBoard(lines: outputs, pins: pins, rowPeriod: rowPeriod, dimCycle: dimCycle, scheduler: scheduler)
        // The device is confined to the scheduler: frames reach it there.
        let frame = MutableProperty(Frame.dark)
        let bindings = CompositeDisposable([lights <~ frame.signal.observe(on: scheduler)])
        scheduler.runAndWait { lights.start() }
        stop.arm {
            scheduler.runAndWait {
                bindings.dispose()
                lights.stop()
            }
            pad.release()
            outputs.release()
        }
        defer { stop.disarm()?() }

        var faults = stuckButtons(pad)
        faults += try checkMatrix(frame: frame, person: person)
        if dimMarks && faults.isEmpty {
            faults += try checkBrightness(frame: frame, person: person)
            faults += try checkMarks(frame: frame, person: person)
        }
        faults += try checkStatus(frame: frame, person: person)
        frame.value = .dark
        faults += checkButtons(pad: pad, person: person, skipping: stuckLines(pad))
        return faults
    }

    private func stuckLines(_ pad: ButtonPad) -> Set<LineOffset> {
        Set((pad.cells + [pad.newGame]).filter { $0.isPressed.value }.map(\.offset))
    }

    private func stuckButtons(_ pad: ButtonPad) -> [String] {
        (pad.cells + [pad.newGame]).filter { $0.isPressed.value }.map { button in
            "\(name(of: button.offset)) reads pressed with nobody touching it: the button is stuck down or \(button.offset) is shorted to ground."
        }
    }

    private func name(of offset: LineOffset) -> String {
        if offset == pins.newGameButton { return "the new-game button (\(offset))" }
        if let index = pins.cellButtons.firstIndex(of: offset) { return "the button of cell \(cellName(index)) (\(offset))" }
        return "\(offset)"
    }

    private func cellName(_ index: Int) -> String { "\(Position.all[index]) [key \(Position.all[index].keypadKey)]" }

    // MARK: LEDs

    private enum Colour: CaseIterable { case red, green, amber
        var led: LEDColor { self == .red ? .red : self == .green ? .green : .amber }
        var word: String { self == .red ? "red" : self == .green ? "green" : "amber" }
    }

    /// What was seen for each cell and colour; nil: nothing lit.
    private typealias SeenMatrix = [Int: [Colour: SeenCell?]]

    private func checkMatrix(frame: MutableProperty<Frame>, person: any SelfTestOperator) throws(NoAnswer) -> [String] {
        person.say("LED matrix: one cell at a time, red, then green, then amber (both).")
        var seen: SeenMatrix = [:]
        for index in 0..<9 {
            for colour in Colour.allCases {
                var lit = Frame.dark
                lit.cells[index] = colour.led
                frame.value = lit
                seen[index, default: [:]][colour] = try person.seenCell(
                    prompt: "Which cell is lit, and in what colour? (expected: \(cellName(index)) \(colour.word))")
            }
        }
        // Dead rows and columns first: they explain many wrong answers at once.
        let faults = lineFaults(seen)
        return faults.isEmpty ? placeFaults(seen) : faults
    }

    /// Rows that never light, and columns that never light or have their colours swapped.
    private func lineFaults(_ seen: SeenMatrix) -> [String] {
        var faults: [String] = []
        for row in 0..<3 where (0..<3).allSatisfy({ column in Colour.allCases.allSatisfy { seen[row * 3 + column]?[$0] ?? nil == nil } }) {
            faults.append("matrix row \(row) (\(pins.rows[row])) never lights: check its transistor, its base resistor and the wire to \(pins.rows[row]).")
        }
        let deadRows = Set((0..<3).filter { row in faults.contains { $0.hasPrefix("matrix row \(row) ") } })
        for column in 0..<3 {
            let cells = (0..<3).filter { !deadRows.contains($0) }.map { $0 * 3 + column }
            if !cells.isEmpty, let fault = columnFault(column, cells: cells, seen) { faults.append(fault) }
        }
        return faults
    }

    private func columnFault(_ column: Int, cells: [Int], _ seen: SeenMatrix) -> String? {
        let redNeverSeen = cells.allSatisfy { cell in Colour.allCases.allSatisfy { !(seen[cell]?[$0].flatMap { $0 }?.red ?? false) } }
        let greenNeverSeen = cells.allSatisfy { cell in Colour.allCases.allSatisfy { !(seen[cell]?[$0].flatMap { $0 }?.green ?? false) } }
        let swapped = cells.allSatisfy { cell in
            let red = seen[cell]?[.red] ?? nil, green = seen[cell]?[.green] ?? nil
            return red == SeenCell(index: cell, red: false, green: true) && green == SeenCell(index: cell, red: true, green: false)
        }
        if swapped {
            return "column \(column): red and green are swapped: the red anodes go to \(pins.greenColumns[column]) and the green ones to \(pins.redColumns[column]) (or the column resistors' wires are crossed)."
        } else if redNeverSeen {
            return "red column \(column) (\(pins.redColumns[column])) never lights: check its resistor and wire."
        } else if greenNeverSeen {
            return "green column \(column) (\(pins.greenColumns[column])) never lights: check its resistor and wire."
        }
        return nil
    }

    /// Cells lit in the wrong place: swapped rows or columns.
    private func placeFaults(_ seen: SeenMatrix) -> [String] {
        var faults: [String] = []
        var reported = Set<String>()
        for index in 0..<9 {
            guard let red = seen[index]?[.red] ?? nil, red.index != index else { continue }
            let (row, column) = (index / 3, index % 3), (seenRow, seenColumn) = (red.index / 3, red.index % 3)
            let finding: String
            if seenColumn == column {
                finding = "rows \(min(row, seenRow)) and \(max(row, seenRow)) are swapped (\(pins.rows[min(row, seenRow)]) and \(pins.rows[max(row, seenRow)]) go to each other's cathodes)."
            } else if seenRow == row {
                finding = "columns \(min(column, seenColumn)) and \(max(column, seenColumn)) are swapped (their anode wires are crossed)."
            } else {
                finding = "cell \(cellName(index)) lights at \(cellName(red.index)): both its row and column wires are crossed."
            }
            if reported.insert(finding).inserted { faults.append(finding) }
        }
        return faults
    }

    /// Both levels side by side in one colour, then swapped, so that neither colour nor place
    /// gives the answer away.
    private func checkBrightness(frame: MutableProperty<Frame>, person: any SelfTestOperator) throws(NoAnswer) -> [String] {
        person.say("Brightness: two cells in the same colour, one of them dim (as O's marks are).")
        var right = 0
        for (bright, dim) in [(3, 5), (5, 3)] {
            var cells = FrameCells()
            cells.set(.green, .full, at: bright)
            cells.set(.green, .dim, at: dim)
            frame.value = Frame(cells: cells, xStatus: false, oStatus: false)
            let seen = try person.brighterCell(prompt: "Which lit cell is the brighter? (expected: \(cellName(bright)))")
            if seen == bright { right += 1 }
        }
        guard right < 2 else { return [] }
        return ["cells lit \(dimCycle) did not look dimmer than cells lit in every frame: the LEDs may be too bright at this current to show it (larger column resistors, Hardware/README.md), or set marks = \"colour\" in [lights]."]
    }

    /// X's mark and O's side by side as the game shows them, then swapped: brightness alone,
    /// colour aside, must tell them apart, with these LEDs as they really are.
    private func checkMarks(frame: MutableProperty<Frame>, person: any SelfTestOperator) throws(NoAnswer) -> [String] {
        let keys = intensityKeys
        person.say("""
            Marks: X's (red) beside O's (green, lit \(dimCycle)), as the game shows them. Judge brightness alone, \
            not colour (half-close your eyes): X must look clearly the brighter, and O still easy to see. If O \
            is hard to see, lower \(keys.green) (or raise \(keys.red)) in the configuration, and run this again.
            """)
        var right = 0
        for (x, o) in [(3, 4), (4, 3)] {
            var cells = FrameCells()
            cells.set(.red, .full, at: x)
            cells.set(.green, .dim, at: o)
            frame.value = Frame(cells: cells, xStatus: false, oStatus: false)
            let seen = try person.brighterCell(prompt: "Colour aside, which lit cell is the brighter? (expected: \(cellName(x)), X's red)")
            if seen == x { right += 1 }
        }
        guard right < 2 else { return [] }
        return ["X's red mark did not look brighter than O's green one lit \(dimCycle): the LEDs are not as their figures in the configuration say. Raise \(keys.green) (or lower \(keys.red)) until X looks clearly the brighter; better, set both to the part's datasheet figures."]
    }

    private func checkStatus(frame: MutableProperty<Frame>, person: any SelfTestOperator) throws(NoAnswer) -> [String] {
        var faults: [String] = []
        for (name, lit, offset) in [("X (red)", (true, false), pins.xStatus), ("O (green)", (false, true), pins.oStatus)] {
            frame.value = Frame(cells: Frame.dark.cells, xStatus: lit.0, oStatus: lit.1)
            let seen = try person.seenStatus(prompt: "Which status LED is lit? (expected: \(name))")
            if seen != lit {
                faults.append("status LED \(name) on \(offset): \(seen == (false, false) ? "never lights: check the LED's polarity, its resistor and wire" : "the other LED lights: the status LED wires are swapped").")
            }
        }
        return faults
    }

    // MARK: Buttons

    private func checkButtons(pad: ButtonPad, person: any SelfTestOperator, skipping stuck: Set<LineOffset>) -> [String] {
        person.say("Buttons: press each one when asked.")
        let presses = Protected<[LineOffset]>([])
        let observations = CompositeDisposable()
        for button in pad.cells + [pad.newGame] {
            observations += button.presses.observeValues { _ in presses.withValue { $0.append(button.offset) } }
        }
        defer { observations.dispose() }
        var faults: [String] = []
        let targets = pins.cellButtons.enumerated().map { (ButtonTarget.cell($0.offset), $0.element, "the button of cell \(cellName($0.offset))") }
            + [(ButtonTarget.newGame, pins.newGameButton, "the new-game button")]
        for (target, line, name) in targets where !stuck.contains(line) {
            presses.withValue { $0 = [] }
            person.press(target, prompt: "Press \(name).", waitingUpTo: buttonTimeout) { !presses.value.isEmpty }
            guard let got = presses.value.first else {
                faults.append("\(name) (\(line)) never changed: check the button and its wires to \(line) and ground.")
                continue
            }
            if got != line {
                faults.append("\(name) is wired to \(got), the line of \(self.name(of: got)); it should go to \(line).")
            }
        }
        return faults
    }
}
