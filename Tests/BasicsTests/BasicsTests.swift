#if canImport(Glibc)
import Glibc
#endif
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
}
