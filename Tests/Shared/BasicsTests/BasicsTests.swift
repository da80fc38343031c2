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

    /// The temporary names the next writes will try: the ones after the last taken (tests
    /// running meanwhile take some too, so a few more than one).
    private func nextTemporaryNames(of path: String, count: Int = 20) -> [String] {
        let last = TextFile.temporaryNames.load(ordering: .relaxed)
        return (last + 1...last + count).map { TextFile.temporaryPath(for: path, attempt: $0) }
    }

    @Test("a write replaces the file whole; links and directories planted at temporary names are passed over, not written through")
    func plantedLink() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TextFile.write("precious", to: directory + "/victim")
        let planted = nextTemporaryNames(of: directory + "/wiring.svg")
        for (index, name) in planted.enumerated() {
            #expect(index % 2 == 0 ? symlink(directory + "/victim", name) == 0 : mkdir(name, 0o755) == 0)
        }
        try TextFile.write("<svg/>", to: directory + "/wiring.svg")
        #expect(try TextFile.read(directory + "/victim") == "precious")
        #expect(try TextFile.read(directory + "/wiring.svg") == "<svg/>")
        var status = stat()
        #expect(lstat(directory + "/wiring.svg", &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("wiring.svg.tmp") }.count
        #expect(left == planted.count, "the write left a temporary file of its own, or removed a planted one")
    }

    @Test("a hundred temporary names taken: the write fails saying so and the old file stays")
    func everyNameTaken() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TextFile.write("old", to: directory + "/state.json")
        for name in nextTemporaryNames(of: directory + "/state.json", count: 400) { #expect(mkdir(name, 0o755) == 0) }
        #expect(throws: TextFileError(reason: "cannot write the file: a hundred temporary names beside it are taken", code: EEXIST)) {
            try TextFile.write("new", to: directory + "/state.json")
        }
        #expect(try TextFile.read(directory + "/state.json") == "old")
    }

    @Test("setting aside picks a free name: nothing is overwritten, a directory too")
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
        // A directory at the name is moved aside whole, beside the files, over none of them.
        #expect(mkdir(path, 0o755) == 0)
        try TextFile.write("inside", to: path + "/kept")
        #expect(try TextFile.setAside(path, suffix: ".corrupt-1") == path + ".corrupt-1-4")
        #expect(try TextFile.read(path + ".corrupt-1-4/kept") == "inside")
        #expect(try TextFile.read(path + ".corrupt-1") == "one")
    }

    @Test("where the rename cannot refuse to replace (EINVAL), a plain rename to a name seen free: still nothing overwritten")
    func setAsideWithoutNoReplace() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.json"
        let noFlag: TextFile.RenameAt2 = { _, _, _, _, _ in
            errno = EINVAL
            return -1
        }
        for text in ["one", "two"] {
            try TextFile.write(text, to: path)
            _ = try TextFile.setAside(path, suffix: ".corrupt-1") { TextFile.renameWithoutReplacing($0, $1, renameat2: noFlag) }
        }
        #expect(try TextFile.read(path + ".corrupt-1") == "one")
        #expect(try TextFile.read(path + ".corrupt-1-2") == "two")
    }

    @Test("a move that fails (as a link does for another user's file, or on vfat) throws naming why and moves nothing")
    func setAsideFails() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.json"
        try TextFile.write("damaged", to: path)
        #expect(throws: TextFileError(reason: "cannot move it aside to \(path).x: operation not permitted", code: EPERM)) {
            try TextFile.setAside(path, suffix: ".x") { _, _ in
                errno = EPERM
                return -1
            }
        }
        #expect(try TextFile.read(path) == "damaged")
    }

    @Test("what interrupted writes left is removed, files and links (never followed); a directory at such a name is left alone")
    func leftover() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.json"
        try TextFile.write("old", to: path)
        #expect(try TextFile.removeLeftovers(of: [path]) == [])
        try TextFile.write("half of the ne", to: path + ".tmp-3")
        try TextFile.write("an old version's", to: path + ".tmp")
        #expect(symlink(path, path + ".tmp-12") == 0)
        #expect(mkdir(path + ".tmp-7", 0o755) == 0)
        try TextFile.write("not ours", to: path + ".tmp-x")
        #expect(TextFile.leftovers(of: [path]) == [path + ".tmp", path + ".tmp-12", path + ".tmp-3"])
        #expect(try TextFile.removeLeftovers(of: [path]) == [path + ".tmp", path + ".tmp-12", path + ".tmp-3"])
        #expect(try TextFile.read(path) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["state.json", "state.json.tmp-7", "state.json.tmp-x"])
        try TextFile.write("new", to: path)
        #expect(try TextFile.read(path) == "new")
    }

    @Test("a folder's names are every entry but . and .., hidden ones and folders included; no folder has none")
    func names() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(TextFile.names(in: directory) == [])
        try TextFile.write("a", to: directory + "/state.json")
        try TextFile.write("b", to: directory + "/.hidden")
        #expect(mkdir(directory + "/inner", 0o755) == 0)
        #expect(TextFile.names(in: directory)?.sorted() == [".hidden", "inner", "state.json"])
        #expect(TextFile.names(in: directory + "/state.json") == nil)
        #expect(TextFile.names(in: directory + "/missing") == nil)
    }

    @Test("a failed write names its errno and leaves the old file whole")
    func failedWrite() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: TextFileError(reason: "cannot write the file: no such file or directory", code: ENOENT)) {
            try TextFile.write("new", to: directory + "/missing/state.json")
        }
        // A directory standing at the file's own name cannot be renamed over: the write fails, whole.
        #expect(mkdir(directory + "/state.json", 0o755) == 0)
        #expect(throws: TextFileError(reason: "cannot write the file: is a directory", code: EISDIR)) {
            try TextFile.write("new", to: directory + "/state.json")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
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
