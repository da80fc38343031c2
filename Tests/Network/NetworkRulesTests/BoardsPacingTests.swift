import Basics
@testable import NetworkRules
import Testing

private let start = MonotonicInstant(nanoseconds: 5_000_000_000)

@Suite("When tictactoe boards prints (virtual time)")
struct BoardsPacingTests {
    @Test("the first list once the retained messages have stopped coming for 500 ms")
    func settles() {
        var pacing = BoardsPacing(started: start)
        #expect(pacing.next(now: start) == .wait(until: start + .seconds(10)))
        pacing.connected(at: start + .milliseconds(100))
        #expect(pacing.next(now: start + .milliseconds(100)) == .wait(until: start + .milliseconds(600)))
        for step in 1...10 { pacing.heard(at: start + .milliseconds(100 + 200 * step), retained: true, changed: true) }
        #expect(pacing.next(now: start + .milliseconds(2_599)) == .wait(until: start + .milliseconds(2_600)))
        #expect(pacing.next(now: start + .milliseconds(2_600)) == .print)
        pacing.printed(at: start + .milliseconds(2_600))
        #expect(pacing.hasPrinted)
        #expect(pacing.next(now: start + .seconds(60)) == .wait(until: nil), "nothing changed: nothing more to print")
    }

    @Test("live messages never hold the first list back, and a retained burst at most 3 s after the connection")
    func settlesAtTheLatest() {
        var pacing = BoardsPacing(started: start)
        pacing.connected(at: start)
        for step in 1...50 { pacing.heard(at: start + .milliseconds(100 * step), retained: false, changed: false) }
        #expect(pacing.next(now: start + .milliseconds(500)) == .print, "a trickle of live messages held the list back")
        var busy = BoardsPacing(started: start)
        busy.connected(at: start)
        for step in 1...50 { busy.heard(at: start + .milliseconds(100 * step), retained: true, changed: true) }
        #expect(busy.next(now: start + .milliseconds(2_999)) == .wait(until: start + .seconds(3)))
        #expect(busy.next(now: start + .seconds(3)) == .print)
    }

    @Test("an empty broker: an empty list after 500 ms")
    func emptyBroker() {
        var pacing = BoardsPacing(started: start)
        pacing.connected(at: start)
        #expect(pacing.next(now: start + .milliseconds(500)) == .print)
    }

    @Test("live, a flood of changes is printed as it stands at most every 250 ms, none queued")
    func throttles() {
        var pacing = BoardsPacing(started: start)
        pacing.connected(at: start)
        pacing.printed(at: start + .milliseconds(500))
        pacing.heard(at: start + .milliseconds(510), retained: false, changed: false)
        #expect(pacing.next(now: start + .milliseconds(510)) == .wait(until: nil), "a message that changed nothing prints nothing")
        for step in 0..<100 { pacing.heard(at: start + .milliseconds(600 + step), retained: false, changed: true) }
        #expect(pacing.next(now: start + .milliseconds(700)) == .wait(until: start + .milliseconds(750)))
        #expect(pacing.next(now: start + .milliseconds(750)) == .print)
        pacing.printed(at: start + .milliseconds(750))
        #expect(pacing.next(now: start + .milliseconds(760)) == .wait(until: nil))
    }

    @Test("connected again: the list is printed afresh once the retained messages have settled again")
    func reconnects() {
        var pacing = BoardsPacing(started: start)
        pacing.connected(at: start)
        pacing.printed(at: start + .milliseconds(500))
        pacing.heard(at: start + .seconds(2), retained: true, changed: true)
        pacing.connected(at: start + .seconds(3))
        #expect(!pacing.hasPrinted)
        #expect(pacing.next(now: start + .seconds(3)) == .wait(until: start + .milliseconds(3_500)))
        pacing.heard(at: start + .milliseconds(3_200), retained: true, changed: true)
        #expect(pacing.next(now: start + .milliseconds(3_700)) == .print)
    }

    @Test("no broker within 10 s: given up (a list printed once says why)")
    func givesUp() {
        let pacing = BoardsPacing(started: start)
        #expect(pacing.next(now: start + .milliseconds(9_999)) == .wait(until: start + .seconds(10)))
        #expect(pacing.next(now: start + .seconds(10)) == .giveUp)
    }
}
