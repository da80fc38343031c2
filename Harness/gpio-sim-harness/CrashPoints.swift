import ArgumentParser
import Foundation
import WriteLog

/// Replays a log of device-mapper's log-writes target onto a copy of the disk as it was when the
/// log began, stopping at every crash point (each flush and each forced write) to run CHECK on
/// what a power cut at that instant would have left:
///
///     gpio-sim-harness write-log LOG TARGET CHECK
///
/// CHECK runs with the target synchronised and its environment saying where the replay stands:
/// `CRASH_POINT` (1, 2, …), `LOG_ENTRY` (the entry just replayed, from 0), `LOG_KIND` (flush, fua
/// or flush+fua) and `LOG_MARK` (the last mark passed, or empty). Its output goes to the console;
/// a CHECK that fails stops the replay. A crash point with nothing written since the one before
/// leaves the very same disk, so it is counted but not checked again. Reports the log's size, the
/// crash points and those checked.
struct WriteLogReplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-log", abstract: "Replay a log-writes log onto a copy of the disk, running CHECK at every crash point.")

    @Argument(help: ArgumentHelp("The log-writes log device.", valueName: "log")) var logPath: String
    @Argument(help: ArgumentHelp("The copy of the disk as it was when the log began.", valueName: "target")) var targetPath: String
    @Argument(help: ArgumentHelp("The program run at each crash point.", valueName: "check")) var checkPath: String

    func run() throws {
        do {
            try replay()
        } catch let problem as WriteLog.Problem {
            report("write-log", ["error": problem.description])
            throw ExitCode(65)
        } catch let failed as CheckFailed {
            report("write-log", ["error": failed.description])
            throw ExitCode.failure
        } catch {
            report("write-log", ["error": "\(error)"])
            throw ExitCode(70)
        }
    }

    private struct CheckFailed: Error, CustomStringConvertible {
        let point: Int, entry: Int, status: Int32
        var description: String { "the check failed at crash point \(point) (entry \(entry)): status \(status)" }
    }

    private func replay() throws {
        let source = try BlockFile(path: logPath, writable: false)
        let target = try BlockFile(path: targetPath, writable: true)
        let log = try WriteLog(reading: source)
        let distinct = Set(log.distinctCrashPoints.map(\.index))
        var done = 0, point = 0, checked = 0, mark = ""
        for entry in log.entries {
            if let name = entry.mark { mark = name }
            guard entry.isCrashPoint else { continue }
            point += 1
            guard distinct.contains(entry.index) else { continue }
            try log.replay(log.entries[done...entry.index], from: source, onto: target)
            try target.synchronize()
            done = entry.index + 1
            checked += 1
            let status = try runCheck(checkPath, at: entry, point: point, mark: mark)
            guard status == 0 else { throw CheckFailed(point: point, entry: entry.index, status: status) }
        }
        report("write-log", summary(of: log, crashPoints: point, checked: checked))
    }
}

/// Runs CHECK on the disk as a cut at `entry` leaves it, told where the replay stands; its exit status.
private func runCheck(_ path: String, at entry: WriteLog.Entry, point: Int, mark: String) throws -> Int32 {
    let kind = [(WriteLog.Flags.flush, "flush"), (.forceUnitAccess, "fua")].filter { entry.flags.contains($0.0) }.map(\.1)
    let check = Process()
    check.executableURL = URL(fileURLWithPath: path)
    check.environment = ProcessInfo.processInfo.environment.merging(
        ["CRASH_POINT": "\(point)", "LOG_ENTRY": "\(entry.index)", "LOG_KIND": kind.joined(separator: "+"), "LOG_MARK": mark]) { $1 }
    try check.run()
    check.waitUntilExit()
    return check.terminationStatus
}

/// The report of a replay: the log's size and kinds of entry, the crash points and those checked.
private func summary(of log: WriteLog, crashPoints: Int, checked: Int) -> [String: Any] {
    [
        "entries": log.entries.count, "sector_size": log.sectorSize, "crash_points": crashPoints, "checked": checked,
        "flushes": log.entries.filter { $0.flags.contains(.flush) }.count,
        "fua": log.entries.filter { $0.flags.contains(.forceUnitAccess) }.count,
        "marks": log.entries.compactMap(\.mark),
        "bytes_written": log.entries.filter { $0.mark == nil && !$0.flags.contains(.discard) }.reduce(0) { $0 + Int($1.sectors) * log.sectorSize },
    ]
}
