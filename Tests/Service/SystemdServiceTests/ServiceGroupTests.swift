import Basics
import Dispatch
import BoardConfiguration
import Foundation
import Reactive
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SystemdService

/// A part that records its starts and stops in a shared journal, and can be told to fail or to
/// do something once started.
private struct RecordingPart: ServicePart {
    struct Refused: Error {}

    let name: String
    let journal: Protected<[String]>
    var failsToStart = false
    var whenStarted: @Sendable () -> Void = {}

    func start() throws {
        journal.withValue { $0.append("start \(name)") }
        if failsToStart { throw Refused() }
        whenStarted()
    }

    func stop() {
        journal.withValue { $0.append("stop \(name)") }
    }
}

/// A part whose stop never returns (a wedged loop), and says when its stop has begun.
struct WedgedPart: ServicePart {
    let name = "wedged part"
    let journal: Protected<[String]>
    let stopping: DispatchSemaphore

    func start() {
        journal.withValue { $0.append("start \(name)") }
    }

    func stop() {
        journal.withValue { $0.append("stop \(name)") }
        stopping.signal()
        DispatchSemaphore(value: 0).wait()
    }
}

private struct Broken: Error, CustomStringConvertible {
    var description: String { "the lines are gone" }
}

/// Runs `group` on a thread of its own, as the service's main thread does; `ended` is signalled
/// with its outcome when it returns.
private func runInBackground(_ group: ServiceGroup, until shutdown: ShutdownSignal) -> (DispatchSemaphore, Protected<Result<Void, any Error>?>) {
    let (ended, outcome) = (DispatchSemaphore(value: 0), Protected<Result<Void, any Error>?>(nil))
    LoopThread.start(named: "group") {
        outcome.withValue { $0 = Result { try group.run(until: shutdown) } }
        ended.signal()
    }
    return (ended, outcome)
}

@Suite("Service group")
struct ServiceGroupTests {
    @Test("parts start in order, the group waits for the shutdown signal, says which it was, and stops in reverse")
    func order() throws {
        let journal = Protected<[String]>([])
        let shutdown = ShutdownSignal([SIGVTALRM])
        var parts = ["a", "b"].map { RecordingPart(name: $0, journal: journal) }
        // The signal arrives once every part has started: the group takes it from there.
        parts.append(RecordingPart(name: "c", journal: journal) { kill(getpid(), SIGVTALRM) })
        // The stop deadline in virtual time, never reached: a busy machine must not fail the test.
        let group = ServiceGroup(parts, clock: TestScheduler())
        try group.run(until: shutdown) { signal in journal.withValue { $0.append("shutdown \(ShutdownSignal.name(of: signal))") } }
        #expect(journal.value == ["start a", "start b", "start c", "shutdown signal \(SIGVTALRM)", "stop c", "stop b", "stop a"])
    }

    @Test("the started group blocks until its shutdown comes, stopping nothing before")
    func waits() throws {
        let journal = Protected<[String]>([])
        let shutdown = ShutdownSignal([])
        let started = DispatchSemaphore(value: 0)
        let group = ServiceGroup(
            [RecordingPart(name: "a", journal: journal), RecordingPart(name: "b", journal: journal) { started.signal() }], clock: TestScheduler())
        let (ended, outcome) = runInBackground(group, until: shutdown)
        started.wait()
        #expect(ended.wait(timeout: .now()) == .timedOut, "the group ended without its shutdown")
        #expect(journal.value == ["start a", "start b"])
        shutdown.interrupt()
        ended.wait()
        try outcome.value?.get()
        #expect(journal.value == ["start a", "start b", "stop b", "stop a"])
    }

    @Test("a part that fails to start: the ones started are stopped in reverse, later ones never start, the error is thrown")
    func failedStart() {
        let journal = Protected<[String]>([])
        let group = ServiceGroup([
            RecordingPart(name: "a", journal: journal),
            RecordingPart(name: "b", journal: journal),
            RecordingPart(name: "c", journal: journal, failsToStart: true),
            RecordingPart(name: "d", journal: journal),
        ], clock: TestScheduler())
        #expect(throws: RecordingPart.Refused.self) {
            try group.run(until: ShutdownSignal([]))
        }
        #expect(journal.value == ["start a", "start b", "start c", "stop b", "stop a"])
    }

    @Test("a part that fails after the start ends the wait: the parts stop in reverse (the last first), the failure is thrown and said once")
    func failureAfterStart() throws {
        let journal = Protected<[String]>([])
        let said = Protected<[String]>([])
        let failures = PartFailures { failure in said.withValue { $0.append("\(failure)") } }
        let started = DispatchSemaphore(value: 0)
        let group = ServiceGroup(
            ["a", "b"].map { RecordingPart(name: $0, journal: journal) } + [RecordingPart(name: "watchdog", journal: journal) { started.signal() }],
            failures: failures, clock: TestScheduler())
        let (ended, outcome) = runInBackground(group, until: ShutdownSignal([]))
        started.wait()
        failures.report(part: "b", error: Broken())
        failures.report(part: "a", error: Broken())  // a consequence: dropped
        ended.wait()
        do {
            try outcome.value?.get()
            Issue.record("the group ended as if shut down")
        } catch let failed as ServiceGroup.PartFailed {
            #expect(failed.failure.part == "b")
            #expect("\(failed)" == "the b failed: the lines are gone")
        }
        #expect(journal.value == ["start a", "start b", "start watchdog", "stop watchdog", "stop b", "stop a"])
        #expect(said.value == ["the b failed: the lines are gone"])
    }

    @Test("a failure reported during the start stops the group once every part has started, without waiting for the shutdown")
    func failureDuringStart() {
        let journal = Protected<[String]>([])
        let failures = PartFailures()
        failures.report(part: "b", error: Broken())
        let group = ServiceGroup(["a", "b"].map { RecordingPart(name: $0, journal: journal) }, failures: failures, clock: TestScheduler())
        #expect(throws: ServiceGroup.PartFailed.self) {
            try group.run(until: ShutdownSignal([]))
        }
        #expect(journal.value == ["start a", "start b", "stop b", "stop a"])
    }

    @Test("a part whose stop never returns: the group gives up at the deadline, naming it, and stops nothing before it")
    func stopDeadline() {
        let journal = Protected<[String]>([])
        let clock = TestScheduler()
        let stopping = DispatchSemaphore(value: 0)
        let group = ServiceGroup(
            [RecordingPart(name: "a", journal: journal), WedgedPart(journal: journal, stopping: stopping), RecordingPart(name: "c", journal: journal)],
            clock: clock)
        let shutdown = ShutdownSignal([])
        shutdown.interrupt()
        let (ended, outcome) = runInBackground(group, until: shutdown)
        stopping.wait()
        clock.advance(by: ServiceGroup.defaultStopDeadline - .milliseconds(1))
        #expect(ended.wait(timeout: .now()) == .timedOut, "gave up before the deadline")
        clock.advance(by: .milliseconds(1))
        ended.wait()
        do {
            try outcome.value?.get()
            Issue.record("the group waited for the wedged part")
        } catch let overran as ServiceGroup.StopOverran {
            #expect(overran.part == "wedged part" && overran.deadline == .seconds(5) && overran.cause == nil)
            #expect("\(overran)" == "the wedged part did not stop within 5 s; exiting without stopping it or the parts before it")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(journal.value == ["start a", "start wedged part", "start c", "stop c", "stop wedged part"])
    }

    @Test("once run returns, the group's stopping thread holds no part: their last reference is the caller's")
    func partsReleased() throws {
        final class HeldPart: ServicePart {
            let name = "held"
            func start() throws {}
            func stop() {}
        }
        for _ in 0..<50 {
            var part: HeldPart? = HeldPart()
            weak var watched = part
            var group: ServiceGroup? = ServiceGroup([part!])
            part = nil
            let shutdown = ShutdownSignal([])
            shutdown.interrupt()
            try group?.run(until: shutdown)
            group = nil
            #expect(watched == nil, "released before run returned, but for the caller's group")
        }
    }

    @Test("the board service's parts: saving first so it finishes last, the board before its observers, readiness before the watchdog so that pings stop before STOPPING=1, the watchdog last so that it stops first")
    func boardServiceParts() {
        let loop = ThreadScheduler(named: "test loop")
        defer { loop.stop() }
        let service = BoardService(
            configuration: Configuration(), openChip: { throw TestChipMissing() },
            stateDirectory: NSTemporaryDirectory() + "never-made", notifier: Notifier(receive: { _ in }),
            logger: ServiceLog(level: .info, prefix: .levelName) { _ in }, realtimePriority: 0, loop: loop,
            clock: TestScheduler(), pingInterval: .seconds(1),
            extraParts: { _, _ in [RecordingPart(name: "extra", journal: Protected([]))] })
        #expect(service.parts(reportingTo: PartFailures(), clock: TestScheduler()).map(\.name) == [
            "API socket", "saving", "game loop", "board", "autosave", "event log", "local API", "readiness", "extra", "watchdog",
        ])
    }
}

private struct TestChipMissing: Error {}
