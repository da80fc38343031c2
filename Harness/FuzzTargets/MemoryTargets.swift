import Basics
import BoardMemory
#if canImport(Glibc)
import Glibc
#endif

/// The state directory as the board opens it at start (``BoardMemory/inspect(directory:migrating:)``,
/// then ``BoardMemory/open(directory:after:move:)``), holding one file the fuzzer writes.
///
/// Kept, whatever the file holds: the start either stops with its own error (a database of a
/// newer version) or opens; once opened, the directory reads again without a problem; what was
/// read is what reads again (the game, the count of finished games), and what could not be used
/// is kept, byte for byte, under another name: nothing is lost.
enum StateDirectory {
    static func check(_ bytes: [UInt8], as name: String) -> String? {
        guard let directory = madeFolder() else { return "no folder to write the file in" }
        defer { remove(directory) }
        return check(bytes, as: name, in: directory)
    }

    private static func check(_ bytes: [UInt8], as name: String, in directory: String) -> String? {
        do {
            try TextFile.write(bytes: bytes, to: directory + "/" + name)
        } catch {
            return "the file could not be written: \(error.reason)"
        }
        let finding: BoardMemory.Finding
        do {
            finding = try BoardMemory.inspect(directory: directory)
        } catch {
            switch error {
            // A database of a later version: the board stops rather than set it aside.
            case .newer: return nil
            // Meant for what is no fault of the file's (permissions, a lock), which a folder of
            // the target's own cannot have: the board would refuse to start over a file's bytes.
            case .unreadable: return "the start calls the file unreadable: \(error)"
            case .unwritable: return "inspecting wrote: \(error)"
            }
        }
        do {
            let (memory, _) = try BoardMemory.open(directory: directory, after: finding)
            memory.close()
        } catch {
            return "the start failed to open what it inspected: \(error)"
        }
        let again: BoardMemory.Finding
        do {
            again = try BoardMemory.inspect(directory: directory)
        } catch {
            return "the memory the start made cannot be read again: \(error)"
        }
        return compare(finding, again, bytes: bytes, name: name, in: directory)
    }

    /// What the start read (`finding`) against what the memory it made reads (`again`).
    private static func compare(_ finding: BoardMemory.Finding, _ again: BoardMemory.Finding, bytes: [UInt8], name: String, in directory: String) -> String? {
        guard again.source == .database, again.problems.isEmpty else { return "the memory the start made reads with problems: \(again.problems)" }
        if finding.problems.isEmpty {
            guard again.snapshot == finding.snapshot else { return "the game read at start is not the game kept" }
            guard again.games == finding.games else { return "\(finding.games) finished games read at start, \(again.games) kept" }
        } else {
            guard again.snapshot == nil, again.games == 0 else { return "a memory that could not be used gave a game" }
            // Under another name: left under its own, the next start would find it again.
            guard files(in: directory).contains(where: { $0 != name && (try? TextFile.readBytes(directory + "/" + $0)) == bytes }) else {
                return "the file that could not be used is not kept aside: \(files(in: directory))"
            }
        }
        return nil
    }

    /// A new folder for one input, under TMPDIR.
    private static func madeFolder() -> String? {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/fuzz-state-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }.map { String(cString: $0) }
    }

    private static func remove(_ directory: String) {
        for name in files(in: directory) { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    private static func files(in directory: String) -> [String] { TextFile.names(in: directory) ?? [] }
}

/// Release 0.4's saved game, `state.json`, imported at the first start.
public enum StateFileTarget: FuzzTarget {
    public static let name = "state-file"
    public static func check(_ bytes: [UInt8]) -> String? { StateDirectory.check(bytes, as: "state.json") }
}

/// Release 0.4's finished games, `history.jsonl`, imported at the first start.
public enum HistoryFileTarget: FuzzTarget {
    public static let name = "history-file"
    public static func check(_ bytes: [UInt8]) -> String? { StateDirectory.check(bytes, as: "history.jsonl") }
}

/// The finished games of the releases before 0.4's journal, `history.json`, imported at the
/// first start.
public enum OlderHistoryFileTarget: FuzzTarget {
    public static let name = "history-json"
    public static func check(_ bytes: [UInt8]) -> String? { StateDirectory.check(bytes, as: "history.json") }
}

/// The board's memory, `board.sqlite3`, read (and an earlier layout migrated) at every start.
public enum DatabaseTarget: FuzzTarget {
    public static let name = "database"
    public static func check(_ bytes: [UInt8]) -> String? { StateDirectory.check(bytes, as: BoardMemory.fileName) }
}
