import Basics
import BoardMemory
import BoardConfiguration
import BoardSimulation
import Devices
import Dispatch
import Foundation
import GPIO
import ViewModel
import Reactive
import SimulatedGPIO
import TestSupport
import Testing
import TicTacToe
import WiredBoard
@testable import SystemdService

/// What the stand-in for systemd received, and what the chip showed at that moment.
private final class ServiceManager: Sendable {
    struct Message: Sendable {
        var text: String
        /// Every write to the chip's LED lines before the message.
        var writes: [OutputWrite]
        var writeCount: Int
    }

    let messages = Protected<[Message]>([])
    private let arrivals: AsyncStream<String>.Continuation
    let arrived: AsyncStream<String>

    init() {
        (arrived, arrivals) = AsyncStream.makeStream(of: String.self)
    }

    func notifier(watching board: SimulatedBoard) -> Notifier {
        Notifier { [self] text in
            messages.withValue { $0.append(Message(text: text, writes: board.chip.outputHistory, writeCount: board.chip.outputWriteCount)) }
            arrivals.yield(text)
        }
    }

    var texts: [String] { messages.value.map(\.text) }
}

/// The cells that were lit, in which colour, by any of `writes`: what the chip was given,
/// however briefly (a first frame is 1.5 ms of scan, too short for an eye).
private func cellsEverLit(by writes: [OutputWrite], pins: PinMap = .standard) -> Set<String> {
    var lit: Set<String> = []
    for write in writes {
        for (index, color) in pins.cellColors(at: write.levels).enumerated() where color.isLit {
            let cell = "(\(index / 3), \(index % 3))"
            if color.isRedLit { lit.insert("red \(cell)") }
            if color.isGreenLit { lit.insert("green \(cell)") }
        }
    }
    return lit
}

/// Returns once the watchdog has started: its pings are on `clock`. READY=1 comes from the part
/// before it, so a test that moved the clock as soon as READY=1 came could move it before the
/// watchdog had started, and miss a ping (it did, one run in three or so).
private func watchdogStarted(_ clock: TestScheduler) async {
    while clock.pendingCount == 0 { await Task.yield() }
}

/// The service run on a thread of its own, as the program's main thread runs it, until its
/// shutdown is interrupted (no signal: other tests in this process catch those).
final class InBackground: Sendable {
    let shutdown = ShutdownSignal([])
    private let outcome: AsyncStream<Result<Void, any Error>>

    init(_ service: BoardService) {
        let (outcome, record) = AsyncStream<Result<Void, any Error>>.makeStream()
        self.outcome = outcome
        let shutdown = shutdown
        LoopThread.start(named: "service") {
            record.yield(Result { try service.run(until: shutdown) })
            record.finish()
        }
    }

    /// Asks the service to stop and waits until it has; rethrows what it threw.
    func stop() async throws {
        shutdown.interrupt()
        try await end()
    }

    /// Waits until the service has ended by itself (a part failed, the stop overran).
    func end() async throws {
        for await ended in outcome { return try ended.get() }
    }
}

@Suite("The service, in process, on the simulated chip")
struct BoardServiceTests {
    @Test("READY after the first frame, pings only while the loop runs, the saved game restored and saved, STOPPING then lights off",
          .timeLimit(.minutes(1)))
    func wholeService() async throws {
        let directory = NSTemporaryDirectory() + "tictactoe-service-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = GameSnapshot(board: try Board().playing([p(1, 1), p(0, 0)]), nextStarter: .o, score: Score(xWins: 2, oWins: 1, draws: 0))
        try BoardMemory.open(directory: directory, after: try BoardMemory.inspect(directory: directory)).memory.commit(saved)

        let clock = ThreadScheduler(named: "chip clock")
        defer { clock.stop() }
        let chip = SimulatedChip(clock: clock)
        let person = SimulatedBoard(chip: chip, pins: .standard, scheduler: clock)
        let systemd = ServiceManager()
        let log = Protected<[String]>([])
        let loop = ThreadScheduler(named: "test loop")
        let watchdog = TestScheduler()
        let service = BoardService(
            configuration: Configuration(), openChip: { chip }, stateDirectory: directory,
            notifier: systemd.notifier(watching: person),
            logger: ServiceLog(level: .info, prefix: .levelName) { line in log.withValue { $0.append(line) } },
            realtimePriority: 0, loop: loop, clock: watchdog, pingInterval: .seconds(1))

        let running = InBackground(service)
        var arrivals = systemd.arrived.makeAsyncIterator()

        // READY=1 comes once the restored game has been written to the chip.
        let ready = await arrivals.next()
        #expect(ready?.hasPrefix("READY=1") == true)
        await watchdogStarted(watchdog)
        let atReady = try #require(systemd.messages.value.first)
        #expect(cellsEverLit(by: atReady.writes) == ["red (1, 1)", "green (0, 0)"], "READY=1 was sent before the restored game was on the LEDs")
        #expect(log.value.contains { $0.contains("restored the saved game from \(BoardMemory.path(in: directory)): score") })

        // Pings while the loop runs its heartbeats (each ping asks for the next one, which the
        // loop answers before the test goes on); none while it is wedged; again once it runs.
        loop.runAndWait {}
        watchdog.advance(by: .seconds(1))
        loop.runAndWait {}
        watchdog.advance(by: .seconds(1))
        loop.runAndWait {}
        #expect(systemd.texts.dropFirst() == ["WATCHDOG=1", "WATCHDOG=1"])
        let wedge = DispatchSemaphore(value: 0)
        loop.schedule { wedge.wait() }
        watchdog.advance(by: .seconds(1))  // answered before the wedge; the heartbeat it asks for is stuck behind it
        watchdog.advance(by: .seconds(1))
        watchdog.advance(by: .seconds(1))
        #expect(systemd.texts.dropFirst() == ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"], "pinged while the loop was wedged")
        #expect(log.value.filter { $0.contains("withholding the watchdog ping") }.count == 2)
        wedge.signal()
        loop.runAndWait {}
        watchdog.advance(by: .seconds(1))
        #expect(systemd.texts.dropFirst() == ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"])

        // A press plays on from the restored game.
        person.press(p(0, 2))
        loop.runAndWait {}
        #expect(log.value.contains { $0.contains("X took cell 9.") })

        try await running.stop()
        let stopping = try #require(systemd.messages.value.last)
        #expect(stopping.text == "STOPPING=1")
        watchdog.advance(by: .seconds(3))
        #expect(systemd.texts.last == "STOPPING=1", "the watchdog pinged after STOPPING=1")
        #expect(stopping.writeCount < chip.outputWriteCount, "the LEDs were switched off before STOPPING=1")
        for setting in PinMap.standard.allLEDsOff {
            #expect(chip.level(of: setting.offset) == setting.level, "\(setting.offset) left on")
        }
        #expect(chip.consumer(of: PinMap.standard.rows[0]) == nil, "lines not released")
        let played = GameSnapshot(board: try Board().playing([p(1, 1), p(0, 0), p(0, 2)]), nextStarter: .o, score: saved.score)
        #expect(try BoardMemory.inspect(directory: directory).snapshot == played)
        #expect(log.value.last?.contains("stopped") == true)
    }

    /// Runs the service on the state directory with a simulated chip until it is ready, presses
    /// the top left cell, stops it, and returns the log.
    private func pressOnce(directory: String) async throws -> [String] {
        let clock = ThreadScheduler(named: "chip clock")
        defer { clock.stop() }
        let chip = SimulatedChip(clock: clock)
        let person = SimulatedBoard(chip: chip, pins: .standard, scheduler: clock)
        let systemd = ServiceManager()
        let log = Protected<[String]>([])
        let loop = ThreadScheduler(named: "test loop")
        let service = BoardService(
            configuration: Configuration(), openChip: { chip }, stateDirectory: directory, notifier: systemd.notifier(watching: person),
            logger: ServiceLog(level: .info, prefix: .levelName) { line in log.withValue { $0.append(line) } },
            realtimePriority: 0, loop: loop, clock: TestScheduler(), pingInterval: .seconds(1))
        let running = InBackground(service)
        var arrivals = systemd.arrived.makeAsyncIterator()
        #expect(await arrivals.next()?.hasPrefix("READY=1") == true)
        person.press(p(0, 0))
        loop.runAndWait {}
        #expect(log.value.contains { $0.contains("X took cell 7.") })
        try await running.stop()
        return log.value
    }

    @Test("a directory at the database's name is moved aside and the game is saved", .timeLimit(.minutes(1)))
    func directoryAtDatabase() async throws {
        let directory = NSTemporaryDirectory() + "tictactoe-service-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BoardMemory.path(in: directory)
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        let log = try await pressOnce(directory: directory)
        #expect(log.contains { $0.contains("\(path) is not a file; moved it to \(path).corrupt-") }, "\(log)")
        #expect(try BoardMemory.inspect(directory: directory).snapshot?.board[p(0, 0)] == .x, "the press was not saved")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(BoardMemory.fileName + ".corrupt-") }
        #expect(aside.count == 1 && FileManager.default.fileExists(atPath: directory + "/" + aside[0] + "/inside"))
    }

    @Test("directories squatting temporary names (of this version and the last) stop neither the start nor a save", .timeLimit(.minutes(1)))
    func squattedTemporaryNames() async throws {
        let directory = NSTemporaryDirectory() + "tictactoe-service-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["state.json.tmp", "state.json.tmp-1", "history.json.tmp", BoardMemory.fileName + "-import"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: true)
        }
        _ = try await pressOnce(directory: directory)
        #expect(try BoardMemory.inspect(directory: directory).snapshot?.board[p(0, 0)] == .x, "the press was not saved")
    }

    /// A service on a simulated chip whose watchdog and stop deadline run in virtual time, its
    /// log handed to `logged` as each line is written (on the thread that writes it).
    private struct Running {
        let chip: SimulatedChip
        let person: SimulatedBoard
        let systemd = ServiceManager()
        let log = Protected<[String]>([])
        let loop = ThreadScheduler(named: "test loop")
        /// The watchdog's pings and the stop's deadline, in virtual time.
        let clock = TestScheduler()
        let service: BoardService
        let running: InBackground

        init(
            directory: String, logged: @escaping @Sendable (String) -> Void = { _ in },
            extraParts: @escaping @Sendable (PlayingBoard, any Scheduler) -> [any ServicePart] = { _, _ in [] }
        ) {
            let realTime = ThreadScheduler(named: "chip clock")
            chip = SimulatedChip(clock: realTime)
            person = SimulatedBoard(chip: chip, pins: .standard, scheduler: realTime)
            let log = log
            service = BoardService(
                configuration: Configuration(), openChip: { [chip] in chip }, stateDirectory: directory,
                notifier: systemd.notifier(watching: person),
                logger: ServiceLog(level: .info, prefix: .levelName) { line in
                    log.withValue { $0.append(line) }
                    logged(line)
                },
                realtimePriority: 0, loop: loop, clock: clock, pingInterval: .seconds(1), extraParts: extraParts, stopClock: clock)
            running = InBackground(service)
        }

        /// Waits for READY=1, presses the centre (a lit cell: the scan runs) and has one ping sent.
        func playing() async {
            var arrivals = systemd.arrived.makeAsyncIterator()
            #expect(await arrivals.next()?.hasPrefix("READY=1") == true)
            await watchdogStarted(clock)
            person.press(p(1, 1))
            loop.runAndWait {}
            #expect(log.value.contains { $0.contains("X took cell 5.") })
            clock.advance(by: .seconds(1))
            loop.runAndWait {}
            #expect(systemd.texts.dropFirst() == ["WATCHDOG=1"])
        }
    }

    @Test("LED lines failing for good mid-game stop the service: said once with the part and the error, no ping after it, the watchdog first to stop",
          .timeLimit(.minutes(1)))
    func ledFailureStopsTheService() async throws {
        let directory = NSTemporaryDirectory() + "tictactoe-service-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let watchdogAtFailure = Protected<TestScheduler?>(nil)
        let service = Running(directory: directory, logged: { line in
            // The moment the failure is said, a ping falls due: it must be withheld.
            if line.hasPrefix("critical:") { watchdogAtFailure.value?.advance(by: .seconds(1)) }
        })
        watchdogAtFailure.withValue { $0 = service.clock }
        await service.playing()
        let error = GPIOError.system(chip: service.chip.name, operation: "setting line values", errno: EIO, message: "input/output error")
        service.chip.failWrites(with: error)
        do {
            try await service.running.end()
            Issue.record("the service went on with its LEDs failing")
        } catch let failed as ServiceGroup.PartFailed {
            #expect(failed.failure.part == "board")
            #expect((failed.failure.error as? LEDFailure)?.last == error)
        }
        #expect(service.systemd.texts.dropFirst() == ["WATCHDOG=1", "STOPPING=1"], "pinged after the failure")
        let log = service.log.value
        let said = log.filter { $0.hasPrefix("critical:") }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.hasPrefix("critical: stopping, so that systemd starts the board again: the board failed: writing the LED lines failed ") == true, "\(said)")
        #expect(said.first?.hasSuffix(" ms: gpiochip-sim: setting line values failed: input/output error.\n") == true, "\(said)")
        let order = ["critical: stopping, so that systemd starts the board again", "info: stopping", "info: switching every LED off", "error: stopped after the board failed"]
        let positions = order.map { prefix in log.firstIndex { $0.hasPrefix(prefix) } }
        #expect(positions.allSatisfy { $0 != nil } && positions == positions.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(log)")
    }

    @Test("one LED write failing mid-game (EAGAIN) is retried: the scan goes on and the service stops cleanly", .timeLimit(.minutes(1)))
    func transientLEDFailure() async throws {
        let directory = NSTemporaryDirectory() + "tictactoe-service-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // true: a write that worked after the failed one; false: a critical line.
        let (events, event) = AsyncStream.makeStream(of: Bool.self)
        let service = Running(directory: directory, logged: { line in if line.hasPrefix("critical:") { event.yield(false) } })
        await service.playing()
        let failedBefore = service.chip.failedWriteCount
        let watching = service.chip.outputWrites.observeValues { [chip = service.chip] _ in
            if chip.failedWriteCount > failedBefore { event.yield(true) }
        }
        defer { watching.dispose() }
        service.chip.failWrites(
            with: .system(chip: service.chip.name, operation: "setting line values", errno: EAGAIN, message: "resource temporarily unavailable"),
            times: 1)
        var writesAfter = 0
        for await worked in events {
            #expect(worked, "a transient failure stopped the board: \(service.log.value.filter { $0.hasPrefix("critical:") })")
            writesAfter += 1
            if !worked || writesAfter == 30 { break }
        }
        #expect(service.chip.failedWriteCount == failedBefore + 1)
        try await service.running.stop()
        #expect(service.log.value.last == "info: stopped\n")
    }

    @Test("a part whose stop never returns: the service's stop ends at its deadline, naming the part", .timeLimit(.minutes(1)))
    func wedgedStop() async throws {
        let directory = NSTemporaryDirectory() + "tictactoe-service-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stopping = DispatchSemaphore(value: 0)
        let service = Running(directory: directory, extraParts: { _, _ in [WedgedPart(journal: Protected([]), stopping: stopping)] })
        await service.playing()
        service.running.shutdown.interrupt()
        stopping.wait()
        service.clock.advance(by: ServiceGroup.defaultStopDeadline)
        do {
            try await service.running.end()
            Issue.record("the stop waited for the wedged part")
        } catch let overran as ServiceGroup.StopOverran {
            #expect(overran.part == "wedged part")
        }
        #expect(service.log.value.last == "critical: the wedged part did not stop within 5 s; exiting without stopping it or the parts before it\n")
    }
}

