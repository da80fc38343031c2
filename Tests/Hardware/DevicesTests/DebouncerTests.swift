import Basics
import GPIO
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
