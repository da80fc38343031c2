import Basics
import FuzzTargets
#if canImport(Glibc)
import Glibc
#endif

/// A line on standard error, its invisible characters spelt (a finding's words quote its input).
func say(_ message: String) {
    let line = "fuzz: " + message.spellingInvisibles(except: ["\n"]) + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}

#if FUZZING
// Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer's own main runs the
// target FUZZ_TARGET names (scripts/fuzz.sh), and any property it breaks is a crash, a finding.

nonisolated(unsafe) private var target: (any FuzzTarget.Type)?

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let found = FuzzTargets.named(name) else {
        say("set FUZZ_TARGET to one of \(FuzzTargets.names.joined(separator: ", ")) (it is \(name.quoted()))")
        exit(64)
    }
    target = found
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Without a target every input would pass: LLVMFuzzerInitialize was not called.
    guard let target else {
        say("no target chosen: LLVMFuzzerInitialize did not run")
        abort()
    }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let broken = target.check(bytes) {
        say("\(target.name): \(broken)")
        abort()
    }
    return 0
}

#else
// Any other build: the targets replayed over files, as a finding is looked at.

/// `fuzz TARGET FILE|FOLDER...`: each file read by the target, and what it broke.
/// `fuzz configuration --json FILE...`: each file's document as JSON lines, for
/// fuzz/toml_differential.py.
///
/// Exit statuses: 0 every property kept, 1 one broken, 64 a wrong command line, 66 a file that
/// cannot be read.
@main struct Replay {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let targets = "the targets are \(FuzzTargets.names.joined(separator: ", "))"
        guard let name = arguments.first else { fail(64, "usage: fuzz TARGET [--json] FILE|FOLDER...; \(targets)") }
        guard let target = FuzzTargets.named(name) else { fail(64, "no target \(name.quoted()); \(targets)") }
        arguments.removeFirst()
        let json = arguments.first == "--json"
        if json {
            guard target == ConfigurationTarget.self else { fail(64, "--json is the configuration target's alone") }
            arguments.removeFirst()
        }
        guard !arguments.isEmpty else { fail(64, "name the files (or folders of them) to replay") }
        var broken = 0
        for path in arguments.flatMap(files) {
            guard let bytes = try? TextFile.readBytes(path) else { fail(66, "cannot read \(path): is it a readable file?") }
            if json {
                print(#"{"file":"# + quotedJSON(path) + #","document":"# + (ConfigurationTarget.json(bytes) ?? "null") + "}")
            } else if let problem = target.check(bytes) {
                broken += 1
                print("\(path): \(problem)")
            }
        }
        exit(broken == 0 ? 0 : 1)
    }

    /// The files of `path`, a folder's sorted by name; a file itself.
    static func files(_ path: String) -> [String] {
        guard let names = TextFile.names(in: path) else { return [path] }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }

    static func quotedJSON(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : $0.value < 0x20 ? "\\u00" + (($0.value < 0x10 ? "0" : "") + String($0.value, radix: 16)) : String($0) }.joined() + "\""
    }

    static func fail(_ status: Int32, _ message: String) -> Never {
        say(message)
        exit(status)
    }
}
#endif
