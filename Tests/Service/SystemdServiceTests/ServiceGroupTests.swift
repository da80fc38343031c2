import Basics
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

/// A part whose stop never returns (a wedged loop), and says when its stop has begun.
struct WedgedPart: ServicePart {
    let name = "wedged part"
    let journal: Protected<[String]>
    let stopping: AsyncStream<Void>.Continuation

    func start() async {
        journal.withValue { $0.append("start \(name)") }
    }

    func stop() async {
        journal.withValue { $0.append("stop \(name)") }
        stopping.yield()
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }
}

private struct Broken: Error, CustomStringConvertible {
    var description: String { "the lines are gone" }
}

@Suite("Service group")
struct ServiceGroupTests {
    @Test("parts start in order, wait for the shutdown, and stop in reverse")
    func order() async throws {
        let journal = Protected<[String]>([])
        // The stop deadline in virtual time, never reached: a busy machine must not fail the test.
        let group = ServiceGroup(["a", "b", "c"].map { RecordingPart(name: $0, journal: journal) }, clock: TestScheduler())
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
        ], clock: TestScheduler())
        await #expect(throws: RecordingPart.Refused.self) {
            try await group.run(until: { journal.withValue { $0.append("shutdown") } })
        }
        #expect(journal.value == ["start a", "start b", "start c", "stop b", "stop a"])
    }

    @Test("a part that fails after the start: the shutdown wait is cancelled, the parts stop in reverse (the last first), the failure is thrown and said once")
    func failureAfterStart() async throws {
        let journal = Protected<[String]>([])
        let said = Protected<[String]>([])
        let failures = PartFailures { failure in said.withValue { $0.append("\(failure)") } }
        let group = ServiceGroup(["a", "b", "watchdog"].map { RecordingPart(name: $0, journal: journal) }, failures: failures, clock: TestScheduler())
        let (never, keep) = AsyncStream.makeStream(of: Void.self)
        defer { keep.finish() }
        do {
            try await group.run(until: {
                journal.withValue { $0.append("waiting") }
                failures.report(part: "b", error: Broken())
                failures.report(part: "a", error: Broken())  // a consequence: dropped
                for await _ in never {}
                journal.withValue { $0.append("shutdown wait cancelled") }
            })
            Issue.record("the group ended as if shut down")
        } catch let failed as ServiceGroup.PartFailed {
            #expect(failed.failure.part == "b")
            #expect("\(failed)" == "the b failed: the lines are gone")
        }
        #expect(journal.value == [
            "start a", "start b", "start watchdog", "waiting", "shutdown wait cancelled", "stop watchdog", "stop b", "stop a",
        ])
        #expect(said.value == ["the b failed: the lines are gone"])
    }

    @Test("a failure reported during the start stops the group once every part has started, without waiting for the shutdown")
    func failureDuringStart() async {
        let journal = Protected<[String]>([])
        let failures = PartFailures()
        failures.report(part: "b", error: Broken())
        let group = ServiceGroup(["a", "b"].map { RecordingPart(name: $0, journal: journal) }, failures: failures, clock: TestScheduler())
        await #expect(throws: ServiceGroup.PartFailed.self) {
            try await group.run(until: { journal.withValue { $0.append("shutdown") } })
        }
        #expect(journal.value == ["start a", "start b", "stop b", "stop a"])
    }

    @Test("a part whose stop never returns: the group gives up at the deadline, naming it, and stops nothing before it")
    func stopDeadline() async throws {
        let journal = Protected<[String]>([])
        let clock = TestScheduler()
        let (stopping, stopBegan) = AsyncStream.makeStream(of: Void.self)
        let group = ServiceGroup(
            [RecordingPart(name: "a", journal: journal), WedgedPart(journal: journal, stopping: stopBegan), RecordingPart(name: "c", journal: journal)],
            clock: clock)
        let ended = Protected(false)
        let running = Task {
            defer { ended.withValue { $0 = true } }
            try await group.run(until: {})
        }
        for await _ in stopping { break }
        clock.advance(by: ServiceGroup.defaultStopDeadline - .milliseconds(1))
        await Task.yield()
        #expect(!ended.value, "gave up before the deadline")
        clock.advance(by: .milliseconds(1))
        do {
            try await running.value
            Issue.record("the group waited for the wedged part")
        } catch let overran as ServiceGroup.StopOverran {
            #expect(overran.part == "wedged part" && overran.deadline == .seconds(5) && overran.cause == nil)
            #expect("\(overran)" == "the wedged part did not stop within 5 s; exiting without stopping it or the parts before it")
        }
        #expect(journal.value == ["start a", "start wedged part", "start c", "stop c", "stop wedged part"])
    }

    @Test("the board service's parts: saving first so it finishes last, the board before its observers, readiness before the watchdog so that pings stop before STOPPING=1, the watchdog last so that it stops first")
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
            "API socket", "saving", "game loop", "board", "autosave", "event log", "local API", "readiness", "extra", "watchdog",
        ])
    }
}

private struct TestChipMissing: Error {}
