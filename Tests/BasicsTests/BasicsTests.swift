#if canImport(Glibc)
import Glibc
#endif
import Foundation
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

    @Test("a duration in whole nanoseconds: short and long, either sign, a fraction of a nanosecond dropped")
    func durationNanoseconds() {
        let cases: [(Duration, Int64)] = [
            (.zero, 0), (.nanoseconds(1), 1), (.nanoseconds(-1), -1), (.milliseconds(20), 20_000_000),
            (.seconds(9), 9_000_000_000), (.seconds(10), 10_000_000_000), (.seconds(-10), -10_000_000_000),
            (.seconds(86_400 * 365), 31_536_000_000_000_000), (.nanoseconds(Int64.max / 2), Int64.max / 2),
            (Duration(secondsComponent: 1, attosecondsComponent: 999_999_999), 1_000_000_000),
            (Duration(secondsComponent: 20, attosecondsComponent: 1_999_999_999), 20_000_000_001),
            (.microseconds(-3), -3_000),
        ]
        for (duration, nanoseconds) in cases { #expect(duration.nanoseconds == nanoseconds, "\(duration)") }
        #expect((MonotonicInstant(nanoseconds: 5) + .milliseconds(1)).nanoseconds == 1_000_005)
    }
}

@Suite("Text files")
struct TextFileTests {
    private func folder() -> String {
        let path = "/tmp/tictactoe-textfile-\(MonotonicInstant.now().nanoseconds)"
        #expect((try? TextFile.makeDirectory(path)) != nil)
        return path
    }

    @Test("a write replaces the file whole, and a link planted at the temporary name is removed, not written through")
    func plantedLink() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TextFile.write("precious", to: directory + "/victim")
        #expect(symlink(directory + "/victim", directory + "/wiring.svg.tmp") == 0)
        try TextFile.write("<svg/>", to: directory + "/wiring.svg")
        #expect(try TextFile.read(directory + "/victim") == "precious")
        #expect(try TextFile.read(directory + "/wiring.svg") == "<svg/>")
        var status = stat()
        #expect(lstat(directory + "/wiring.svg", &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
        #expect(access(directory + "/wiring.svg.tmp", F_OK) != 0, "the temporary file was left behind")
    }

    @Test("setting aside picks a free name: nothing is overwritten")
    func setAside() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.json"
        var asides: [String] = []
        for text in ["one", "two", "three"] {
            try TextFile.write(text, to: path)
            asides.append(try TextFile.setAside(path, suffix: ".corrupt-1"))
        }
        #expect(asides == [path + ".corrupt-1", path + ".corrupt-1-2", path + ".corrupt-1-3"])
        #expect(try asides.map { try TextFile.read($0) } == ["one", "two", "three"])
        #expect(access(path, F_OK) != 0)
        #expect(throws: TextFileError.self) { try TextFile.setAside(path, suffix: ".x") }
    }

    @Test("what an interrupted write left is removed, link or file, and the file itself is untouched")
    func leftover() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.json"
        try TextFile.write("old", to: path)
        #expect(try TextFile.removeLeftover(of: path) == false)
        try TextFile.write("half of the ne", to: TextFile.temporaryPath(for: path))
        #expect(try TextFile.removeLeftover(of: path) == true)
        #expect(symlink(path, TextFile.temporaryPath(for: path)) == 0)
        #expect(try TextFile.removeLeftover(of: path) == true)
        #expect(access(TextFile.temporaryPath(for: path), F_OK) != 0)
        #expect(try TextFile.read(path) == "old")
    }

    @Test("a failed write names its errno and leaves the old file whole")
    func failedWrite() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: TextFileError(reason: "cannot write the file: no such file or directory", code: ENOENT)) {
            try TextFile.write("new", to: directory + "/missing/state.json")
        }
        // A directory standing at the temporary name cannot be removed by unlink: the old file stays.
        try TextFile.write("old", to: directory + "/state.json")
        #expect(mkdir(directory + "/state.json.tmp", 0o755) == 0)
        #expect(throws: TextFileError.self) { try TextFile.write("new", to: directory + "/state.json") }
        #expect(try TextFile.read(directory + "/state.json") == "old")
    }
}

@Suite("Repeated failures")
struct RepeatedFailuresTests {
    @Test("the first failure of each kind is said, then the first success after them, and after it every kind is new again")
    func reporting() {
        var failures = RepeatedFailures()
        #expect(failures.succeeded() == nil, "a success after successes says nothing")
        let said = [ENOSPC, ENOSPC, ENOSPC, EIO, ENOSPC, nil, EIO, nil].map { failures.failed(kind: $0) }
        #expect(said == [true, false, false, true, false, true, false, false])
        #expect(failures.failuresSinceSuccess == 8)
        #expect(failures.succeeded() == 8)
        #expect(failures.succeeded() == nil)
        let saidAgain = failures.failed(kind: ENOSPC)
        #expect(saidAgain, "a card that fills up again is said again")
    }
}
