import GPIO
import Reactive
import Testing
@testable import Devices

private func ms(_ value: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64(value * 1_000_000)) }

@Suite("Debouncer")
struct DebouncerTests {
    @Test("the first edge is accepted at once; press bounce inside the window is ignored")
    func pressBounce() {
        var debouncer = Debouncer(window: .milliseconds(20), initialLevel: .high)
        #expect(debouncer.edge(to: .low, at: ms(0)) == .low)
        #expect(debouncer.edge(to: .high, at: ms(0.5)) == nil)
        #expect(debouncer.edge(to: .low, at: ms(1)) == nil)
        #expect(debouncer.settleDeadline == ms(20))
        #expect(debouncer.settle(at: ms(20)) == nil)
        #expect(debouncer.stableLevel == .low)
    }

    @Test("release bounce does not fire a second press")
    func releaseBounce() {
        var debouncer = Debouncer(window: .milliseconds(20), initialLevel: .high)
        _ = debouncer.edge(to: .low, at: ms(0))
        _ = debouncer.settle(at: ms(20))
        #expect(debouncer.edge(to: .high, at: ms(100)) == .high)
        // Release chatter: low-high-low-high within the window — no new press.
        #expect(debouncer.edge(to: .low, at: ms(100.4)) == nil)
        #expect(debouncer.edge(to: .high, at: ms(100.8)) == nil)
        #expect(debouncer.edge(to: .low, at: ms(101.2)) == nil)
        #expect(debouncer.edge(to: .high, at: ms(101.6)) == nil)
        #expect(debouncer.settle(at: ms(120)) == nil)
        #expect(debouncer.stableLevel == .high)
    }

    @Test("a tap shorter than the window is completed by the settle check")
    func shortTap() {
        var debouncer = Debouncer(window: .milliseconds(20), initialLevel: .high)
        #expect(debouncer.edge(to: .low, at: ms(0)) == .low)
        #expect(debouncer.edge(to: .high, at: ms(8)) == nil)
        #expect(debouncer.settle(at: ms(20)) == .high)
        #expect(debouncer.settleDeadline == ms(40))
    }

    @Test("a bounce edge handed over late, out of order, does not make a second press")
    func lateDelivery() {
        var debouncer = Debouncer(window: .milliseconds(20), initialLevel: .high)
        #expect(debouncer.edge(to: .low, at: ms(0)) == .low)
        // The burst's last edge (low at 1.2 ms) arrives before an earlier one (high at 0.8 ms).
        #expect(debouncer.edge(to: .low, at: ms(1.2)) == nil)
        #expect(debouncer.edge(to: .high, at: ms(0.8)) == nil)
        #expect(debouncer.settle(at: ms(40)) == nil)
        #expect(debouncer.stableLevel == .low)
    }

    @Test("a release burst stamped alike by a coarse clock settles on its last edge, not a second press")
    func coarseClock() {
        // Seen in the emulated VM under load: the clock fell back to 4 ms ticks, so all five
        // edges of a release burst carried one stamp, and the first of them used to win.
        var debouncer = Debouncer(window: .milliseconds(20), initialLevel: .high)
        _ = debouncer.edge(to: .low, at: ms(0))
        _ = debouncer.settle(at: ms(20))
        #expect(debouncer.edge(to: .high, at: ms(172)) == .high)
        #expect(debouncer.edge(to: .low, at: ms(172)) == nil)
        #expect(debouncer.edge(to: .high, at: ms(172)) == nil)
        #expect(debouncer.edge(to: .low, at: ms(172)) == nil)
        #expect(debouncer.edge(to: .high, at: ms(172)) == nil)
        #expect(debouncer.settle(at: ms(192)) == nil)
        #expect(debouncer.stableLevel == .high)
    }

    @Test("an edge after the window is accepted without a settle call")
    func afterWindow() {
        var debouncer = Debouncer(window: .milliseconds(20), initialLevel: .high)
        _ = debouncer.edge(to: .low, at: ms(0))
        #expect(debouncer.edge(to: .high, at: ms(30)) == .high)
    }
}

private func mutated(_ change: (inout PinMap) -> Void) -> PinMap {
    var pins = PinMap.standard
    change(&pins)
    return pins
}

/// Wiring mistakes and the message each gets. A file-level constant: Swift 6.0's compiler crashes
/// on closures written inside an `@Test(arguments:)` literal.
private let wiringMistakes: [(PinMap, String)] = [
    (mutated { p in p.cellButtons.removeLast() }, "buttons.cells lists 8 lines; it needs exactly 9."),
    (mutated { p in p.rows = [23, 24] }, "matrix.rows lists 2 lines; it needs exactly 3."),
    (mutated { p in p.greenColumns[0] = 9 }, "GPIO9 is used twice, by matrix.red_columns and by matrix.green_columns; give each its own line."),
    (mutated { p in p.newGameButton = 14 }, "buttons.new_game uses GPIO14, but it is the serial console (TXD); choose another line in GPIO2–27."),
    (mutated { p in p.cellButtons[0] = 0 }, "buttons.cells uses GPIO0, but it is the HAT EEPROM bus (ID_SD); choose another line in GPIO2–27."),
    (mutated { p in p.xStatus = 3 }, "status.x uses GPIO3, which has a fixed pull-up resistor and cannot drive an LED properly; use it for a button and move the LED to another line."),
    (mutated { p in p.oStatus = 30 }, "status.o uses GPIO30, which is not on the 40-pin header; use GPIO2–27."),
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

    @Test("each wiring mistake is refused with the key and line named", arguments: wiringMistakes)
    func refused(pins: PinMap, message: String) {
        #expect {
            _ = try pins.validated()
        } throws: { error in
            (error as? PinMapError)?.description == message
        }
    }

    @Test("polarity maps active to the right level")
    func polarity() {
        #expect(Polarity.activeLow.level(active: true) == .low)
        #expect(Polarity.activeHigh.level(active: true) == .high)
        #expect(Polarity.activeLow.isActive(.low))
        #expect(!Polarity.activeHigh.isActive(.low))
    }
}
