import BoardSimulation
import Devices
import GPIO
import Lights
import ViewModel
import Reactive
import SimulatedGPIO
import TestSupport
import Testing
import TicTacToe
@testable import WiredBoard

/// Whole games played the way a person plays: fingers on the simulated chip's button lines, eyes
/// on its LED lines. Nothing here reads the view model to decide what the board shows.
@Suite("Whole games on the simulated chip")
struct WholeGameTests {
    let scheduler = TestScheduler()
    let chip: SimulatedChip
    let board: GameBoard
    let person: SimulatedBoard

    init() throws {
        chip = SimulatedChip(clock: scheduler)
        board = try GameBoard(chip: chip, settings: BoardSettings(), scheduler: scheduler)
        board.start()
        person = SimulatedBoard(chip: chip, pins: .standard, scheduler: scheduler)
        scheduler.advance(by: .milliseconds(50))
    }

    /// Taps a cell (with bounce) and returns what the eye sees 150 ms later.
    @discardableResult
    private func tap(_ position: Position, bounce: Bool = true) -> String {
        person.tap(position, bounce: bounce)
        scheduler.advance(by: .milliseconds(150))
        return person.seenFrame.description
    }

    private func looks(after delay: Duration) -> String {
        scheduler.advance(by: delay)
        return person.seenFrame.description
    }

    @Test("a complete run: X wins on a diagonal, presses after the end, new game, an illegal press, a draw")
    func completeRun() {
        #expect(person.seenFrame.description == ". . .\n. . .\n. . .\nX:on O:off")
        #expect(tap(p(0, 0)) == "R . .\n. . .\n. . .\nX:off O:dim")
        #expect(tap(p(0, 1)) == "R g .\n. . .\n. . .\nX:on O:off")
        #expect(tap(p(1, 1)) == "R g .\n. R .\n. . .\nX:off O:dim")
        #expect(tap(p(0, 2)) == "R g g\n. R .\n. . .\nX:on O:off")
        // X completes the diagonal: its three cells blink with X's LED; O's cells stay steady.
        let won = tap(p(2, 2))
        #expect(won == "R g g\n. R .\n. . R\nX:on O:off" || won == ". g g\n. . .\n. . .\nX:off O:off")
        let phases = Set((0..<8).map { _ in looks(after: .milliseconds(200)) })
        #expect(phases == ["R g g\n. R .\n. . R\nX:on O:off", ". g g\n. . .\n. . .\nX:off O:off"])
        #expect(board.viewModel.score.value.xWins == 1)

        // Presses after the end change nothing.
        person.tap(p(1, 0), bounce: true)
        let afterEnd = Set((0..<8).map { _ in looks(after: .milliseconds(200)) })
        #expect(afterEnd == phases)

        // A short press of new game starts O's game: dark matrix, O's LED.
        person.pressNewGame(bounce: true)
        #expect(looks(after: .milliseconds(200)) == ". . .\n. . .\n. . .\nX:off O:dim")

        // An illegal press flashes amber, then the board is as it was.
        #expect(tap(p(1, 1)) == ". . .\n. g .\n. . .\nX:on O:off")
        #expect(tap(p(1, 1)) == ". . .\n. A .\n. . .\nX:on O:off")
        #expect(looks(after: .milliseconds(400)) == ". . .\n. g .\n. . .\nX:on O:off")

        // Play on to a draw (O started with the centre):  X G G / G G R / R R G.
        for position in [p(0, 0), p(0, 2), p(2, 0), p(1, 0), p(1, 2), p(0, 1), p(2, 1), p(2, 2)] {
            tap(position)
        }
        let drawPhases = Set((0..<8).map { _ in looks(after: .milliseconds(200)) })
        #expect(drawPhases == ["R g g\ng g R\nR R g\nX:on O:dim", ". . .\n. . .\n. . .\nX:off O:off"])
        #expect(board.viewModel.score.value.draws == 1)
    }

    @Test("what the eye sees always matches the view model's frame once the scan has run")
    func seenMatchesFrame() {
        for position in [p(1, 1), p(0, 0), p(2, 2), p(0, 2), p(2, 0), p(1, 0)] {
            person.tap(position, bounce: true)
            scheduler.advance(by: .milliseconds(150))
            #expect(person.seenFrame == board.viewModel.frame.value)
        }
    }

    @Test("two buttons at once play both, in edge order")
    func twoAtOnce() {
        person.press(p(0, 0))
        person.press(p(2, 2))
        scheduler.advance(by: .milliseconds(100))
        person.release(p(0, 0))
        person.release(p(2, 2))
        #expect(looks(after: .milliseconds(100)) == "R . .\n. . .\n. . g\nX:on O:off")
    }

    @Test("mid-game, a short press of new game does nothing; holding it starts over")
    func heldNewGame() {
        tap(p(1, 1))
        tap(p(0, 0))
        person.pressNewGame(bounce: true)
        #expect(looks(after: .milliseconds(300)) == "g . .\n. R .\n. . .\nX:on O:off")
        person.pushNewGame()
        #expect(looks(after: .milliseconds(1400)) == "g . .\n. R .\n. . .\nX:on O:off")
        #expect(looks(after: .milliseconds(200)) == ". . .\n. . .\n. . .\nX:off O:dim")
        person.releaseNewGame()
        #expect(looks(after: .milliseconds(300)) == ". . .\n. . .\n. . .\nX:off O:dim")
        #expect(tap(p(2, 0)) == ". . .\n. . .\ng . .\nX:on O:off")
    }

    @Test("a new game with O to start, nothing lit but O's dim LED: the loop wakes twice a dim cycle for the LED's pulse (222 times a second by default), not 2,000 for a row scan")
    func oToStartIsNotScanned() {
        tap(p(1, 1))
        tap(p(0, 0))
        person.pushNewGame()
        scheduler.advance(by: .milliseconds(1600))
        person.releaseNewGame()
        #expect(looks(after: .milliseconds(300)) == ". . .\n. . .\n. . .\nX:off O:dim")
        #expect(board.lights.isPulsing && !board.lights.isScanning)
        let actions = scheduler.completedActions
        scheduler.advance(by: .seconds(1))
        // Two a dim cycle: its frames of three rows at the default 0.5 ms row period (a scan: one
        // every row period).
        let settings = BoardSettings(), cycle = settings.scanRowPeriod * 3 * settings.dimCycle.frames
        let perSecond = Int((2 * (Duration.seconds(1) / cycle)).rounded(.down))
        #expect((perSecond - 1...perSecond + 3).contains(scheduler.completedActions - actions), "\(scheduler.completedActions - actions) actions")
        #expect(person.seenFrame.description == ". . .\n. . .\n. . .\nX:off O:dim")
        #expect(tap(p(2, 2)) == ". . .\n. . .\n. . g\nX:on O:off")
        #expect(board.lights.isScanning && !board.lights.isPulsing)
    }

    /// A board of its own with a short idle time: minutes of virtual scanning cost real seconds.
    private static func boardThatSleepsAfter10Seconds() throws -> (TestScheduler, SimulatedChip, GameBoard, SimulatedBoard) {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        let board = try GameBoard(chip: chip, settings: BoardSettings(game: GameTimings(idleSleep: .seconds(10))), scheduler: scheduler)
        board.start()
        return (scheduler, chip, board, SimulatedBoard(chip: chip, pins: .standard, scheduler: scheduler))
    }

    @Test("after a long idle the lights sleep; the first press only wakes them")
    func sleepAndWake() throws {
        let (scheduler, _, board, person) = try Self.boardThatSleepsAfter10Seconds()
        defer { board.shutdown() }  // and the board lives to the end
        func tap(_ position: Position) -> String {
            person.tap(position, bounce: true)
            scheduler.advance(by: .milliseconds(150))
            return person.seenFrame.description
        }
        #expect(tap(p(1, 1)) == ". . .\n. R .\n. . .\nX:off O:dim")
        scheduler.advance(by: .seconds(9))
        #expect(person.seenFrame.description == ". . .\n. R .\n. . .\nX:off O:dim")
        scheduler.advance(by: .seconds(1))
        #expect(person.seenFrame.description == ". . .\n. . .\n. . .\nX:off O:off")
        #expect(tap(p(0, 0)) == ". . .\n. R .\n. . .\nX:off O:dim")
        #expect(tap(p(0, 0)) == "g . .\n. R .\n. . .\nX:on O:off")
    }

    @Test("asleep and dark, the board schedules nothing and writes nothing; a press starts the scan again")
    func quietWhenDark() throws {
        let (scheduler, chip, board, person) = try Self.boardThatSleepsAfter10Seconds()
        // A won game, blinking, then left alone until the lights sleep.
        for cell in [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)] {
            person.tap(cell, bounce: true)
            scheduler.advance(by: .milliseconds(150))
        }
        #expect(board.viewModel.isOver.value && board.lights.isScanning)
        scheduler.advance(by: .seconds(11))
        #expect(board.viewModel.isAsleep.value)
        #expect(!board.lights.isScanning)
        #expect(scheduler.pendingCount == 0, "no scan, no blink, no countdown, no settle check")
        let (actions, writes) = (scheduler.completedActions, chip.outputHistory.count)
        scheduler.advance(by: .seconds(60))
        #expect(scheduler.completedActions == actions)
        #expect(chip.outputHistory.count == writes)
        #expect(PinMap.standard.outputOffsets.allSatisfy { chip.level(of: $0) == .low })
        person.tap(p(2, 2), bounce: true)
        scheduler.advance(by: .milliseconds(150))
        #expect(board.lights.isScanning)
        #expect(person.seenFrame.description == "R R R\ng g .\n. . .\nX:on O:off"
                || person.seenFrame.description == ". . .\ng g .\n. . .\nX:off O:off")
    }

    @Test("against the computer, chosen on the board: its cells in green after its thinking time, its LED on meanwhile, a press in its turn refused")
    func againstTheComputer() throws {
        // Four gestures from two players: the computer at level 4 (each starts a new game; the
        // starter alternates, so X starts the fourth).
        for _ in 0..<4 {
            person.chooseNextOpponent(tapping: p(2, 2), bounce: true)
            scheduler.advance(by: .milliseconds(400))
        }
        #expect(looks(after: .zero) == "g g g\ng . .\n. . .\nX:off O:off", "level 4 is shown as four green cells")
        #expect(looks(after: .milliseconds(1500)) == ". . .\n. . .\n. . .\nX:on O:off")
        #expect(tap(p(1, 1)) == ". . .\n. R .\n. . .\nX:off O:dim", "its turn: its LED on while it thinks")
        #expect(tap(p(2, 2)) == ". . .\n. R .\n. . A\nX:off O:dim", "a press in its turn flashes amber")
        scheduler.advance(by: .milliseconds(600))
        let answered = person.seenFrame
        #expect(answered.cells.filter { $0 == .green }.count == 1 && answered.xStatus && !answered.oStatus)
        #expect([0, 2, 6, 8].contains { answered.cells[$0] == .green }, "perfect play answers the centre in a corner")
        #expect(board.viewModel.state.value.opponent == .computer(.perfect))
    }

    @Test("shutdown switches every LED off, releases every line, and writes nothing after")
    func shutdown() {
        tap(p(1, 1))
        board.shutdown()
        let writes = chip.outputHistory.count
        #expect(PinMap.standard.outputOffsets.allSatisfy { chip.level(of: $0) == .low })
        #expect((PinMap.standard.inputOffsets + PinMap.standard.outputOffsets).allSatisfy { chip.consumer(of: $0) == nil })
        person.tap(p(0, 0))
        scheduler.advance(by: .seconds(2))
        #expect(chip.outputHistory.count == writes)
        board.shutdown()
    }
}

@Suite("Starting a board")
struct GameBoardStartTests {
    let scheduler = TestScheduler()

    @Test("a bad pin map is refused before any line is requested")
    func badPinMap() {
        let chip = SimulatedChip(clock: scheduler)
        var settings = BoardSettings()
        settings.pins.rows[0] = 14
        #expect {
            _ = try GameBoard(chip: chip, settings: settings, scheduler: scheduler)
        } throws: { error in
            (error as? BoardError)?.description == "pin map: rows uses GPIO14, but it is the serial console (TXD); choose another line in GPIO2–27."
        }
        #expect((0..<28).allSatisfy { chip.consumer(of: LineOffset(UInt32($0))) == nil })
    }

    @Test("a busy button line is reported and the LED lines already taken are released")
    func busyLine() throws {
        let chip = SimulatedChip(clock: scheduler)
        let other = try chip.requestInputs(InputConfiguration(offsets: [26], bias: .pullUp, consumer: "gpiomon"))
        defer { withExtendedLifetime(other) {} }
        #expect {
            _ = try GameBoard(chip: chip, settings: BoardSettings(), scheduler: scheduler)
        } throws: { error in
            (error as? BoardError)?.description.contains("line 26 (GPIO26) is busy: \"gpiomon\" holds it") == true
        }
        #expect(PinMap.standard.outputOffsets.allSatisfy { chip.consumer(of: $0) == nil })
    }

    @Test("a scan too slow to look steady is refused")
    func slowScan() {
        let chip = SimulatedChip(clock: scheduler)
        #expect(throws: BoardError.self) {
            _ = try GameBoard(chip: chip, settings: BoardSettings(scanRowPeriod: .milliseconds(5)), scheduler: scheduler)
        }
    }

    @Test("LEDs whose green is ten times the default's need a dim cycle the default row period cannot refresh: refused, saying why; their own cycle is the scan's once it can")
    func cycleFromTheLEDs() throws {
        var settings = BoardSettings()
        settings.leds.green.luminousIntensity *= 10
        #expect(settings.dimCycle.frames > BoardSettings().dimCycle.frames)
        #expect {
            _ = try GameBoard(chip: SimulatedChip(clock: scheduler), settings: settings, scheduler: scheduler)
        } throws: { error in
            (error as? BoardError)?.description.contains("(\(settings.dimCycle), as these LEDs need") == true
        }
        // At the longest row period the cycle allows, the board starts and lights O one frame in that many.
        settings.scanRowPeriod = settings.longestScanRow
        let chip = SimulatedChip(clock: scheduler)
        let board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler)
        board.start()
        let person = SimulatedBoard(chip: chip, pins: settings.pins, scheduler: scheduler, dimCycle: settings.dimCycle)
        person.tap(Position.all[4])
        scheduler.advance(by: .milliseconds(200))
        person.tap(Position.all[0])
        scheduler.advance(by: .milliseconds(200))
        #expect(person.seenFrame.description.hasPrefix("g . .\n. R ."), "\(person.seenFrame)")
        #expect(settings.slowestRefreshRate >= Double(BoardSettings.minimumFrameRate))
        // O's mark comes on once a cycle: the scan's frames a second over the cycle's frames.
        let before = chip.outputHistory.count
        scheduler.advance(by: .seconds(1))
        var onsets = 0, wasOn = true
        for write in chip.outputHistory.dropFirst(before) {
            let on = settings.pins.cellColors(at: write.levels)[0] == .green
            if on && !wasOn { onsets += 1 }
            wasOn = on
        }
        #expect(abs(Double(onsets) - settings.slowestRefreshRate) <= 2, "\(onsets) a second, \(settings.slowestRefreshRate) expected")
    }

    @Test("a released board frees its view model and pad: no retain cycles")
    func noCycles() throws {
        let chip = SimulatedChip(clock: scheduler)
        weak var weakBoard: GameBoard?
        weak var weakPad: ButtonPad?
        do {
            let board = try GameBoard(chip: chip, settings: BoardSettings(), scheduler: scheduler)
            board.start()
            weakBoard = board
            weakPad = board.pad
            scheduler.advance(by: .milliseconds(20))
        }
        #expect(weakBoard == nil)
        #expect(weakPad == nil)
        #expect((0..<28).allSatisfy { chip.consumer(of: LineOffset(UInt32($0))) == nil })
    }
}

@Suite("Lights off after the program is gone")
struct LightsOffTests {
    let scheduler = TestScheduler()
    let pins = PinMap.standard

    @Test("every LED line a dead program left lit goes off, and the lines are free again")
    func afterADeadProgram() throws {
        let chip = SimulatedChip(clock: scheduler)
        // A program that dies mid-scan: its lines are released, their levels stay (as on a Pi).
        let dead = try chip.requestOutputs(OutputConfiguration(offsets: pins.outputOffsets, initialLevel: .high, consumer: "killed"))
        dead.release()
        #expect(pins.outputOffsets.allSatisfy { chip.level(of: $0) == .high })
        try GameBoard.switchLightsOff(chip: chip, pins: pins)
        #expect(pins.outputOffsets.allSatisfy { chip.level(of: $0) == .low })
        #expect(pins.outputOffsets.allSatisfy { chip.consumer(of: $0) == nil })
    }

    @Test("active-low LEDs are driven high to be off")
    func activeLow() throws {
        let chip = SimulatedChip(clock: scheduler)
        var pins = pins
        pins.rowPolarity = .activeLow
        pins.statusPolarity = .activeLow
        try GameBoard.switchLightsOff(chip: chip, pins: pins)
        #expect((pins.rows + [pins.xStatus, pins.oStatus]).allSatisfy { chip.level(of: $0) == .high })
        #expect((pins.redColumns + pins.greenColumns).allSatisfy { chip.level(of: $0) == .low })
    }

    @Test("lines still held by a running board are refused and left as they are")
    func whileHeld() throws {
        let chip = SimulatedChip(clock: scheduler)
        let board = try GameBoard(chip: chip, settings: BoardSettings(), scheduler: scheduler)
        board.start()
        do {
            try GameBoard.switchLightsOff(chip: chip, pins: pins)
            Issue.record("lines held by the board were taken")
        } catch {
            guard case .gpio(.lineBusy(_, _, let consumer)) = error else {
                Issue.record("expected a busy line, got \(error)")
                return
            }
            #expect(consumer == "tictactoe-leds")
        }
        #expect(chip.level(of: pins.xStatus) == .high, "the running board's X status LED is untouched")
        board.shutdown()
        var bad = pins
        bad.rows.removeLast()
        do {
            try GameBoard.switchLightsOff(chip: chip, pins: bad)
            Issue.record("a bad pin map was used")
        } catch {
            guard case .pinMap(.wrongCount(.rows, expected: 3, found: 2)) = error else {
                Issue.record("expected the wrong row count, got \(error)")
                return
            }
        }
    }
}
