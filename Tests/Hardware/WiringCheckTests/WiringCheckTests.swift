import Basics
import BoardSimulation
import Devices
import GPIO
import Lights
import Reactive
import SimulatedGPIO
import Testing
import TicTacToe
@testable import WiringCheck

/// A builder at a simulated board whose *actual* wiring may differ from the pin map the
/// self-test believes: they look at the LEDs through the actual wiring and press the physical
/// buttons, which drive whatever lines those buttons are really wired to.
final class SimulatedBuilder: SelfTestOperator, @unchecked Sendable {
    let board: SimulatedBoard
    let scheduler: TestScheduler
    /// How many questions they answer before walking away (their input ends); nil: all.
    var answersLeft: Int?
    /// Done as they walk away, before the question goes unanswered.
    var beforeWalkingAway: () -> Void = {}

    init(chip: SimulatedChip, scheduler: TestScheduler, actual: PinMap, answers: Int? = nil) {
        board = SimulatedBoard(chip: chip, pins: actual, scheduler: scheduler, dimCycle: .standard)
        self.scheduler = scheduler
        answersLeft = answers
    }

    private func answer() throws(NoAnswer) {
        guard let left = answersLeft else { return }
        guard left > 0 else {
            beforeWalkingAway()
            throw NoAnswer(reason: "standard input ended")
        }
        answersLeft = left - 1
    }

    private func look() -> Frame {
        scheduler.advance(by: .milliseconds(60))
        return board.seenFrame
    }

    func say(_ text: String) {}

    func seenCell(prompt: String) throws(NoAnswer) -> SeenCell? {
        try answer()
        let frame = look()
        return frame.cells.indices.first { frame.cells[$0].isLit }.map {
            SeenCell(index: $0, red: frame.cells[$0].isRedLit, green: frame.cells[$0].isGreenLit)
        }
    }

    func seenStatus(prompt: String) throws(NoAnswer) -> (x: Bool, o: Bool) {
        try answer()
        let frame = look()
        return (frame.xStatus, frame.oStatus)
    }

    /// Whether they can tell bright from dim at all (LEDs driven so hard that both look the same).
    var seesBrightness = true
    /// The eye they look with, and the LEDs as they really are (which need not be as the
    /// figures the self-test was given say), lit dim as the board's cycle lights them.
    var eye = Eye.normal
    var part = LEDPart.standard
    var cycle = DimCycle.standard

    /// The cell that gives the more light to their eye, colour aside, when it gives half as much
    /// again as the other (a difference seen at a glance); nil when the two look alike.
    func brighterCell(prompt: String) throws(NoAnswer) -> Int? {
        try answer()
        let frame = look()
        let lit = frame.cells.indices.filter { frame.cells[$0].isLit }
        guard seesBrightness, lit.count == 2 else { return nil }
        let light = lit.map { part.light(showing: frame.cells[$0], for: eye) * cycle.duty(of: frame.cells.brightness(at: $0)) }
        if light[0] >= 1.5 * light[1] { return lit[0] }
        return light[1] >= 1.5 * light[0] ? lit[1] : nil
    }

    func press(_ target: ButtonTarget, prompt: String, waitingUpTo timeout: Duration, until pressed: @escaping @Sendable () -> Bool) {
        switch target {
        case .cell(let index): board.tap(Position.all[index], bounce: true)
        case .newGame: board.pressNewGame(bounce: true)
        }
        scheduler.advance(by: .milliseconds(300))
    }
}

/// The self-test of the standard wiring, with the default timings.
private let standardTest = SelfTest(pins: .standard, buttons: ButtonTimings(), rowPeriod: .microseconds(500), dimMarks: true)

/// Whether `chip` is as a finished self-test must leave it: every LED line low, no line held.
private func leftDark(_ chip: SimulatedChip) -> Bool {
    PinMap.standard.outputOffsets.allSatisfy { chip.level(of: $0) == .low }
        && (0..<28).allSatisfy { chip.consumer(of: LineOffset(UInt32($0))) == nil }
}

@Suite("Self-test on the simulated chip")
struct SelfTestTests {
    private func run(actual: PinMap, stuck: LineOffset? = nil) throws -> [String] {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        if let stuck { chip.drive(stuck, to: .low) }
        let builder = SimulatedBuilder(chip: chip, scheduler: scheduler, actual: actual)
        let faults = try standardTest.run(chip: chip, scheduler: scheduler, operator: builder)
        #expect(leftDark(chip), "an LED was left lit or a line requested")
        return faults
    }

    @Test("nobody answering (input ended) ends the walk-through with NoAnswer, every LED off and every line released",
          arguments: [0, 5, 27, 28])
    func noAnswer(answers: Int) throws {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        let builder = SimulatedBuilder(chip: chip, scheduler: scheduler, actual: .standard, answers: answers)
        #expect(throws: NoAnswer(reason: "standard input ended")) {
            try standardTest.run(chip: chip, scheduler: scheduler, operator: builder)
        }
        #expect(leftDark(chip), "an LED was left lit or a line requested")
    }

    @Test("a stop from another thread (a signal) switches every LED off and releases every line at once, mid-question")
    func stoppedFromOutside() throws {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        let builder = SimulatedBuilder(chip: chip, scheduler: scheduler, actual: .standard, answers: 4)
        let stop = SelfTestStop()
        let ledsLitBeforeStop = Protected(false)
        let allOffAfterStop = Protected(false)
        builder.beforeWalkingAway = {
            ledsLitBeforeStop.withValue { $0 = PinMap.standard.outputOffsets.contains { chip.level(of: $0) == .high } }
            stop.stop()
            allOffAfterStop.withValue { $0 = leftDark(chip) }
        }
        #expect(throws: NoAnswer.self) {
            try standardTest.run(chip: chip, scheduler: scheduler, operator: builder, stop: stop)
        }
        #expect(ledsLitBeforeStop.value, "nothing was lit to switch off")
        #expect(allOffAfterStop.value, "the stop left an LED lit or a line requested")
        stop.stop()  // after the test: nothing to do
    }

    @Test("a correctly wired board passes")
    func correct() throws {
        #expect(try run(actual: .standard) == [])
    }

    @Test("dim marks that look as bright as full ones are named; without dim marks it is not asked")
    func brightness() throws {
        for dimMarks in [true, false] {
            let scheduler = TestScheduler()
            let chip = SimulatedChip(clock: scheduler)
            let builder = SimulatedBuilder(chip: chip, scheduler: scheduler, actual: .standard)
            builder.seesBrightness = false
            let test = SelfTest(pins: .standard, buttons: ButtonTimings(), rowPeriod: .microseconds(500), dimMarks: dimMarks)
            let faults = try test.run(chip: chip, scheduler: scheduler, operator: builder)
            #expect(faults == (dimMarks ? [
                "cells lit \(DimCycle.standard) did not look dimmer than cells lit in every frame: the LEDs may be too bright at this current to show it (larger column resistors, Hardware/README.md), or set marks = \"colour\" in [lights].",
                "X's red mark did not look brighter than O's green one lit \(DimCycle.standard): the LEDs are not as their figures in the configuration say. Raise the green intensity (or lower the red intensity) until X looks clearly the brighter; better, set both to the part's datasheet figures.",
            ] : []))
            #expect(leftDark(chip))
        }
    }

    @Test("X's mark beside O's, with the LEDs as their figures say: a normal, a protan and a deutan builder each see X the brighter", arguments: Eye.allCases)
    func marksSideBySide(eye: Eye) throws {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        let builder = SimulatedBuilder(chip: chip, scheduler: scheduler, actual: .standard)
        builder.eye = eye
        #expect(try standardTest.run(chip: chip, scheduler: scheduler, operator: builder) == [])
    }

    @Test("LEDs whose green is ten times the figure given: to a normal or a protan eye X's mark beside O's no longer looks the brighter, and the finding names the keys to change",
          arguments: [Eye.normal, .protan])
    func marksUnlikeTheirFigures(eye: Eye) throws {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        let builder = SimulatedBuilder(chip: chip, scheduler: scheduler, actual: .standard)
        builder.eye = eye
        builder.part.green.luminousIntensity *= 10
        let test = SelfTest(
            pins: .standard, buttons: ButtonTimings(), rowPeriod: .microseconds(500), dimMarks: true,
            intensityKeys: ("lights.red_intensity_mcd", "lights.green_intensity_mcd"))
        let faults = try test.run(chip: chip, scheduler: scheduler, operator: builder)
        #expect(faults == [
            "X's red mark did not look brighter than O's green one lit \(DimCycle.standard): the LEDs are not as their figures in the configuration say. Raise lights.green_intensity_mcd (or lower lights.red_intensity_mcd) until X looks clearly the brighter; better, set both to the part's datasheet figures.",
        ])
        #expect(leftDark(chip))
    }

    @Test("swapped buttons are named")
    func swappedButtons() throws {
        var actual = PinMap.standard
        actual.cellButtons.swapAt(0, 1)
        #expect(try run(actual: actual) == [
            "the button of cell (0, 0) [key 7] is wired to GPIO17, the line of the button of cell (0, 1) [key 8] (GPIO17); it should go to GPIO4.",
            "the button of cell (0, 1) [key 8] is wired to GPIO4, the line of the button of cell (0, 0) [key 7] (GPIO4); it should go to GPIO17.",
        ])
    }

    @Test("a stuck button is found, and not asked for")
    func stuckButton() throws {
        #expect(try run(actual: .standard, stuck: PinMap.standard.cellButtons[4]) == [
            "the button of cell (1, 1) [key 5] (GPIO5) reads pressed with nobody touching it: the button is stuck down or GPIO5 is shorted to ground.",
        ])
    }

    @Test("a dead row is named with its line")
    func deadRow() throws {
        var actual = PinMap.standard
        actual.rows[1] = 7  // the row's transistor is really driven by nothing the test drives
        #expect(try run(actual: actual) == [
            "matrix row 1 (GPIO24) never lights: check its transistor, its base resistor and the wire to GPIO24.",
        ])
    }

    @Test("swapped colour columns are named")
    func swappedColours() throws {
        var actual = PinMap.standard
        (actual.redColumns[2], actual.greenColumns[2]) = (actual.greenColumns[2], actual.redColumns[2])
        #expect(try run(actual: actual) == [
            "column 2: red and green are swapped: the red anodes go to GPIO21 and the green ones to GPIO11 (or the column resistors' wires are crossed).",
        ])
    }

    @Test("swapped rows are named")
    func swappedRows() throws {
        var actual = PinMap.standard
        actual.rows.swapAt(0, 2)
        #expect(try run(actual: actual) == [
            "rows 0 and 2 are swapped (GPIO23 and GPIO25 go to each other's cathodes).",
        ])
    }

    @Test("a button that never changes is named")
    func deadButton() throws {
        var actual = PinMap.standard
        actual.newGameButton = 8  // wired to nothing the pad reads
        #expect(try run(actual: actual) == [
            "the new-game button (GPIO3) never changed: check the button and its wires to GPIO3 and ground.",
        ])
    }

    @Test("the unattended check finds a stuck line and passes a clean board")
    func atRest() throws {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        #expect(try standardTest.checkInputsAtRest(chip: chip, scheduler: scheduler) == [])
        chip.drive(PinMap.standard.newGameButton, to: .low)
        #expect(try standardTest.checkInputsAtRest(chip: chip, scheduler: scheduler) == [
            "the new-game button (GPIO3) reads pressed with nobody touching it: the button is stuck down or GPIO3 is shorted to ground.",
        ])
    }
}
