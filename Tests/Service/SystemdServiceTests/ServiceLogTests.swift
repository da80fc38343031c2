import Basics
import Reactive
import Testing
@testable import SystemdService
#if canImport(Glibc)
import Glibc
#endif

@Suite("Service log")
struct ServiceLogTests {
    /// A log at `level` that keeps its lines.
    private func recordingLog(_ level: ServiceLog.Level, prefix: ServiceLog.Prefix) -> (ServiceLog, Protected<[String]>) {
        let lines = Protected<[String]>([])
        let log = ServiceLog(level: level, prefix: prefix) { line in lines.withValue { $0.append(line) } }
        return (log, lines)
    }

    @Test("for the journal each line starts with its syslog priority")
    func journalPrefixes() {
        let (log, lines) = recordingLog(.debug, prefix: .syslogPriority)
        log.debug("edge 5")
        log.info("ready on gpiochip0")
        log.notice("restored")
        log.warning("no progress")
        log.error("saving failed")
        log.critical("LED output failed")
        #expect(lines.value == [
            "<7>edge 5\n", "<6>ready on gpiochip0\n", "<5>restored\n", "<4>no progress\n",
            "<3>saving failed\n", "<2>LED output failed\n",
        ])
    }

    @Test("for a person each line starts with its level's name")
    func namePrefixes() {
        let (log, lines) = recordingLog(.info, prefix: .levelName)
        log.warning("no progress")
        #expect(lines.value == ["warning: no progress\n"])
    }

    @Test("messages below the level are dropped without building their text")
    func filtering() {
        let (log, lines) = recordingLog(.warning, prefix: .levelName)
        let built = Protected(0)
        func expensive() -> String { built.withValue { $0 += 1 }; return "text" }
        log.info(expensive())
        log.debug(expensive())
        log.error(expensive())
        #expect(lines.value == ["error: text\n"])
        #expect(built.value == 1)
    }

    @Test("one message is one line, and a very long one is cut below PIPE_BUF")
    func oneLine() throws {
        let log = ServiceLog(level: .info, prefix: .syslogPriority) { _ in }
        #expect(log.line(.info, "a\nb\r\nc") == "<6>aU+000AbU+000DU+000Ac\n")
        #expect(log.line(.info, "chip \u{1B}[31mred\u{202E}") == "<6>chip U+001B[31mredU+202E\n", "an escape sequence reached the journal")
        let long = try #require(log.line(.info, String(repeating: "é", count: 5000)))
        #expect(long.utf8.count <= ServiceLog.longestLine + 1)
        #expect(long.hasSuffix("…\n"))
        #expect(long.unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
    }

    @Test("levels are ordered by importance and named as the command line takes them")
    func levels() {
        #expect(ServiceLog.Level.debug < .info && .info < .notice && .notice < .warning)
        #expect(ServiceLog.Level.warning < .error && .error < .critical)
        for level in ServiceLog.Level.allCases { #expect(ServiceLog.Level(name: level.description) == level) }
        #expect(ServiceLog.Level(name: "trace") == nil)
    }

    @Test("standard output is the journal only when JOURNAL_STREAM names its device and inode")
    func journalDetection() {
        var status = stat()
        #expect(fstat(STDOUT_FILENO, &status) == 0)
        #expect(ServiceLog.standardOutputIsJournal(journalStream: "\(status.st_dev):\(status.st_ino)"))
        #expect(!ServiceLog.standardOutputIsJournal(journalStream: "\(status.st_dev):\(status.st_ino + 1)"))
        #expect(!ServiceLog.standardOutputIsJournal(journalStream: "garbage"))
        #expect(!ServiceLog.standardOutputIsJournal(journalStream: nil))
        #expect(ServiceLog(level: .info, environment: [:]).prefix == .levelName)
    }
}
