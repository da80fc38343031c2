import Testing
@testable import Basics

@Suite("Shown text")
struct ShownTextTests {
    @Test("invisible scalars are spelt as code points; what was asked to be kept stays")
    func spelling() {
        #expect("a\u{1B}[2Jb".spellingInvisibles() == "aU+001B[2Jb")
        #expect("one\ntwo".spellingInvisibles(except: ["\n"]) == "one\ntwo")
        #expect("\u{202E}txt".shown() == "U+202Etxt")
        #expect(String(repeating: "x", count: 50).shown(limit: 4) == "xxxx…")
        #expect(Character("\u{7}").shown == "U+0007")
        #expect(Character("é").shown == "'é'")
    }
}

@Suite("Monotonic clock")
struct MonotonicClockTests {
    @Test("the clock never goes back")
    func monotonic() {
        var last = MonotonicInstant.now()
        for _ in 0..<1000 {
            let next = MonotonicInstant.now()
            #expect(next >= last)
            last = next
        }
        #expect(last > .zero)
    }
}
