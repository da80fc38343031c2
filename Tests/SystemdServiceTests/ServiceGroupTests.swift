import BoardConfiguration
import Foundation
import Reactive
import Testing
@testable import SystemdService

/// A part that records its starts and stops in a shared journal, and can be told to fail.
private struct RecordingPart: ServicePart {
    struct Refused: Error {}

    let name: String
    let journal: Protected<[String]>
    var failsToStart = false

    func start() async throws {
        journal.withValue { $0.append("start \(name)") }
        if failsToStart { throw Refused() }
    }

    func stop() async {
        journal.withValue { $0.append("stop \(name)") }
    }
}

@Suite("Service group")
struct ServiceGroupTests {
    @Test("parts start in order, wait for the shutdown, and stop in reverse")
    func order() async throws {
        let journal = Protected<[String]>([])
        let group = ServiceGroup(["a", "b", "c"].map { RecordingPart(name: $0, journal: journal) })
        try await group.run(until: { journal.withValue { $0.append("shutdown") } })
        #expect(journal.value == ["start a", "start b", "start c", "shutdown", "stop c", "stop b", "stop a"])
    }

    @Test("a part that fails to start: the ones started are stopped in reverse, later ones never start, the error is thrown")
    func failedStart() async {
        let journal = Protected<[String]>([])
        let group = ServiceGroup([
            RecordingPart(name: "a", journal: journal),
            RecordingPart(name: "b", journal: journal),
            RecordingPart(name: "c", journal: journal, failsToStart: true),
            RecordingPart(name: "d", journal: journal),
        ])
        await #expect(throws: RecordingPart.Refused.self) {
            try await group.run(until: { journal.withValue { $0.append("shutdown") } })
        }
        #expect(journal.value == ["start a", "start b", "start c", "stop b", "stop a"])
    }

    @Test("the board service's parts: saving first so it finishes last, the board before its observers, readiness before the watchdog so that pings stop before STOPPING=1")
    func boardServiceParts() {
        let loop = ThreadScheduler()
        defer { loop.stop() }
        let service = BoardService(
            configuration: Configuration(), openChip: { throw TestChipMissing() },
            store: StateStore(directory: NSTemporaryDirectory() + "never-made"), notifier: Notifier(receive: { _ in }),
            logger: ServiceLog(level: .info, prefix: .levelName) { _ in }, realtimePriority: 0, loop: loop,
            watchdogClock: TestScheduler(), pingInterval: .seconds(1),
            extraParts: { _ in [RecordingPart(name: "extra", journal: Protected([]))] })
        #expect(service.parts().map(\.name) == [
            "API socket", "saving", "game loop", "board", "autosave", "event log", "local API", "readiness", "watchdog", "extra",
        ])
    }
}

private struct TestChipMissing: Error {}
