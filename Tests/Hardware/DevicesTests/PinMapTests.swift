import GPIO
import Lights
import Testing
@testable import Devices

private func mutated(_ change: (inout PinMap) -> Void) -> PinMap {
    var pins = PinMap.standard
    change(&pins)
    return pins
}

/// Wiring mistakes and the message each gets. A file-level constant [6.0.3: test-arguments-crash]:
/// Swift 6.0's compiler crashes on closures written inside an `@Test(arguments:)` literal.
private let wiringMistakes: [(PinMap, String)] = [
    (mutated { p in p.cellButtons.removeLast() }, "cellButtons lists 8 lines; it needs exactly 9."),
    (mutated { p in p.rows = [23, 24] }, "rows lists 2 lines; it needs exactly 3."),
    (mutated { p in p.greenColumns[0] = 9 }, "GPIO9 is used twice, by redColumns and by greenColumns; give each its own line."),
    (mutated { p in p.newGameButton = 14 }, "newGameButton uses GPIO14, but it is the serial console (TXD); choose another line in GPIO2–27."),
    (mutated { p in p.cellButtons[0] = 0 }, "cellButtons uses GPIO0, but it is the HAT EEPROM bus (ID_SD); choose another line in GPIO2–27."),
    (mutated { p in p.xStatus = 3 }, "xStatus uses GPIO3, which has a fixed pull-up resistor and cannot drive an LED properly; use it for a button and move the LED to another line."),
    (mutated { p in p.oStatus = 30 }, "oStatus uses GPIO30, which is not on the 40-pin header; use GPIO2–27."),
]

@Suite("Pin map")
struct PinMapTests {
    @Test("the standard wiring is valid and uses 21 distinct lines")
    func standard() throws {
        let pins = try PinMap.standard.validated()
        #expect(pins.inputOffsets.count == 10)
        #expect(pins.outputOffsets.count == 11)
        #expect(Set(pins.inputOffsets + pins.outputOffsets).count == 21)
        #expect(!pins.outputOffsets.contains(2) && !pins.outputOffsets.contains(3))
    }

    @Test("each wiring mistake is refused with the group and line named", arguments: wiringMistakes)
    func refused(pins: PinMap, message: String) {
        #expect {
            _ = try pins.validated()
        } throws: { error in
            (error as? PinMapError)?.description == message
        }
    }

    @Test("a cell is lit while its row and its column are on, in the column's colour")
    func cellColors() {
        let pins = PinMap.standard
        var levels = LineLevels()
        #expect(pins.cellColors(at: levels) == Array(repeating: .off, count: 9))
        levels[pins.redColumns[2]] = .high
        levels[pins.greenColumns[2]] = .high
        levels[pins.greenColumns[0]] = .high
        #expect(pins.cellColors(at: levels) == Array(repeating: .off, count: 9), "columns alone light nothing")
        levels[pins.rows[1]] = .high
        #expect(pins.cellColors(at: levels) == [.off, .off, .off, .green, .off, .amber, .off, .off, .off])

        var inverted = pins
        inverted.rowPolarity = .activeLow
        #expect(inverted.cellColors(at: levels) == [.green, .off, .amber, .off, .off, .off, .green, .off, .amber],
                "with active-low rows, the rows held low are the ones on")
    }

    @Test("polarity maps active to the right level")
    func polarity() {
        #expect(Polarity.activeLow.level(active: true) == .low)
        #expect(Polarity.activeHigh.level(active: true) == .high)
        #expect(Polarity.activeLow.isActive(.low))
        #expect(!Polarity.activeHigh.isActive(.low))
    }
}
