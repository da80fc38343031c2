import Basics
import Testing
import BoardProtocol

@Suite("Commands a second")
struct CommandAllowanceTests {
    @Test("ten pass at once, the eleventh waits until the first is a second old")
    func window() {
        var allowance = CommandAllowance(perSecond: 10)
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        for _ in 0..<10 {
            let passed = allowance.take(at: start)
            #expect(passed)
        }
        let passed1 = allowance.take(at: start)
        #expect(!passed1)
        let passed2 = allowance.take(at: start + .milliseconds(999))
        #expect(!passed2)
        let passed3 = allowance.take(at: start + .seconds(1))
        #expect(passed3)
    }

    @Test("a hundred commands in one second: exactly ten pass, and never more than ten in any second", arguments: [1, 7, 10, 33])
    func hundredInASecond(spacingMilliseconds: Int) {
        var allowance = CommandAllowance()
        var passedAt: [Int64] = []
        for index in 0..<100 {
            let at = Int64(index * spacingMilliseconds) * 1_000_000
            if allowance.take(at: MonotonicInstant(nanoseconds: at)) { passedAt.append(at) }
        }
        let lastSecond = Int64(99 * spacingMilliseconds) * 1_000_000
        if lastSecond < 1_000_000_000 { #expect(passedAt.count == 10) }
        for (index, at) in passedAt.enumerated() {
            let inWindow = passedAt[index...].prefix { $0 < at + 1_000_000_000 }.count
            #expect(inWindow <= 10)
        }
    }

    @Test("a clock that goes back lets nothing more through")
    func backwards() {
        var allowance = CommandAllowance(perSecond: 2)
        let start = MonotonicInstant(nanoseconds: 10_000_000_000)
        let passed4 = allowance.take(at: start)
        #expect(passed4)
        let passed5 = allowance.take(at: start)
        #expect(passed5)
        let passed6 = allowance.take(at: start - .seconds(5))
        #expect(!passed6)
    }
}
