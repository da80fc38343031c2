import Basics
import BoardSimulation
import GPIO
import Reactive
import SimulatedGPIO
import TestSupport
import Testing
import TicTacToe
@testable import Devices

@Suite("Button pad")
struct ButtonPadTests {
    let scheduler = TestScheduler()
    let chip: SimulatedChip
    let person: SimulatedBoard

    init() {
        chip = SimulatedChip(clock: scheduler)
        person = SimulatedBoard(chip: chip, pins: .standard, scheduler: scheduler)
    }

    private func record(_ pad: ButtonPad) -> (positions: Protected<[Position]>, gestures: Protected<[NewGamePress]>) {
        let positions = Protected<[Position]>([])
        let gestures = Protected<[NewGamePress]>([])
        pad.positions.observeValues { position in positions.withValue { $0.append(position) } }
        pad.newGamePresses.observeValues { gesture in gestures.withValue { $0.append(gesture) } }
        return (positions, gestures)
    }

    @Test("each cell's button gives its own position, once per press")
    func everyCell() throws {
        let pad = try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(), scheduler: scheduler)
        let (positions, _) = record(pad)
        for position in Position.all {
            person.tap(position)
            scheduler.advance(by: .milliseconds(300))
        }
        #expect(positions.value == Position.all)
    }

    @Test("bouncing contacts on press and on release give exactly one position")
    func bouncing() throws {
        let pad = try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(), scheduler: scheduler)
        let (positions, _) = record(pad)
        person.tap(p(1, 1), bounce: true)
        scheduler.advance(by: .milliseconds(500))
        person.tap(p(0, 2), for: .milliseconds(60), bounce: true)
        scheduler.advance(by: .milliseconds(500))
        #expect(positions.value == [p(1, 1), p(0, 2)])
        #expect(pad.cells.allSatisfy { !$0.isPressed.value })
    }

    @Test("two buttons pressed together give both positions in edge order")
    func twoAtOnce() throws {
        let pad = try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(), scheduler: scheduler)
        let (positions, _) = record(pad)
        person.press(p(2, 2))
        person.press(p(0, 0))
        scheduler.advance(by: .milliseconds(100))
        person.release(p(2, 2))
        person.release(p(0, 0))
        scheduler.advance(by: .milliseconds(100))
        #expect(positions.value == [p(2, 2), p(0, 0)])
    }

    @Test("new game: a short press on release, a hold once the hold time passes, never both")
    func newGameGestures() throws {
        let pad = try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(hold: .milliseconds(1500)), scheduler: scheduler)
        let (_, gestures) = record(pad)
        person.pressNewGame(for: .milliseconds(200), bounce: true)
        scheduler.advance(by: .milliseconds(190))
        #expect(gestures.value.isEmpty)
        scheduler.advance(by: .milliseconds(300))
        #expect(gestures.value == [.short])
        person.pushNewGame()
        scheduler.advance(by: .milliseconds(1499))
        #expect(gestures.value == [.short])
        scheduler.advance(by: .milliseconds(2))
        #expect(gestures.value == [.short, .held])
        scheduler.advance(by: .seconds(3))
        person.releaseNewGame()
        scheduler.advance(by: .milliseconds(100))
        #expect(gestures.value == [.short, .held])
    }

    @Test("the opponent gesture: a cell tapped while new game is held is no move, and that press of new game sends nothing else")
    func opponentGesture() throws {
        let pad = try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(), scheduler: scheduler)
        let (positions, gestures) = record(pad)
        person.chooseNextOpponent(tapping: p(2, 1), bounce: true)
        scheduler.advance(by: .seconds(3))  // past the hold time: still no hold
        #expect(positions.value.isEmpty)
        #expect(gestures.value == [.withCell(p(2, 1))])
        // Held past the hold time first: the hold, then the gesture, and no short press.
        person.pushNewGame()
        scheduler.advance(by: .milliseconds(1600))
        person.tap(p(0, 0))
        scheduler.advance(by: .milliseconds(300))
        person.releaseNewGame()
        scheduler.advance(by: .milliseconds(300))
        // New game up again: cells are moves once more.
        person.tap(p(1, 1))
        scheduler.advance(by: .milliseconds(300))
        #expect(gestures.value == [.withCell(p(2, 1)), .held, .withCell(p(0, 0))])
        #expect(positions.value == [p(1, 1)])
    }

    @Test("a button already held at start gives no phantom press")
    func stuckAtStart() throws {
        person.press(p(0, 0))
        let pad = try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(), scheduler: scheduler)
        let (positions, _) = record(pad)
        #expect(pad.cells[0].isPressed.value)
        scheduler.advance(by: .milliseconds(100))
        person.release(p(0, 0))
        scheduler.advance(by: .milliseconds(100))
        #expect(positions.value.isEmpty)
        person.tap(p(0, 0))
        scheduler.advance(by: .milliseconds(300))
        #expect(positions.value == [p(0, 0)])
    }

    @Test("the pad requests pull-ups, releases its lines, and stops sending")
    func lifecycle() throws {
        let pad = try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(), scheduler: scheduler)
        let (positions, _) = record(pad)
        #expect(chip.level(of: PinMap.standard.cellButtons[0]) == .high)
        #expect(chip.consumer(of: PinMap.standard.newGameButton) == "tictactoe-buttons")
        pad.release()
        #expect(PinMap.standard.inputOffsets.allSatisfy { chip.consumer(of: $0) == nil })
        person.tap(p(1, 1))
        scheduler.advance(by: .milliseconds(300))
        #expect(positions.value.isEmpty)
    }

    @Test("a button line held by another program is reported as busy, naming it")
    func busy() throws {
        let other = try chip.requestInputs(InputConfiguration(offsets: [17], bias: .pullUp, consumer: "gpiomon"))
        defer { withExtendedLifetime(other) {} }
        #expect(throws: GPIOError.lineBusy(chip: chip.name, offset: 17, consumer: "gpiomon")) {
            try ButtonPad(chip: chip, pins: .standard, timings: ButtonTimings(), scheduler: scheduler)
        }
        #expect(chip.consumer(of: 4) == nil)
    }
}
