import Basics
import WiredBoard
#if canImport(Glibc)
import Glibc
#endif
import ViewModel
import Reactive
import SimulatedGPIO
import Testing
@testable import SystemdService

@Suite("Loop heartbeat (watchdog liveness)")
struct LoopHeartbeatTests {
    @Test("alive only once the loop has run the heartbeat asked for; one waits at a time")
    func answeredByTheLoop() {
        let loop = TestScheduler()
        let heartbeat = LoopHeartbeat(loop: loop)
        #expect(!heartbeat.check(), "the loop has not run yet")
        loop.advance()
        #expect(heartbeat.check())
        #expect(!heartbeat.check(), "asked again, not yet answered")
        #expect(!heartbeat.check())
        #expect(loop.pendingCount == 1, "a stalled loop does not pile up heartbeats")
        loop.advance()
        #expect(heartbeat.check())
    }

    @Test("a dark, asleep board still answers, though it schedules nothing of its own")
    func asleepBoardAnswers() throws {
        let loop = TestScheduler()
        let chip = SimulatedChip(clock: loop)
        let board = try GameBoard(
            chip: chip, settings: BoardSettings(game: GameTimings(idleSleep: .seconds(5))), scheduler: loop)
        board.start()
        let heartbeat = LoopHeartbeat(loop: loop)
        loop.advance(by: .seconds(6))
        #expect(board.viewModel.isAsleep.value)
        for _ in 0..<10 {
            #expect(heartbeat.check())
            let before = loop.completedActions
            loop.advance(by: .milliseconds(500))
            #expect(loop.completedActions == before + 1, "only the heartbeat ran")
        }
        // Awake and scanning it answers too.
        board.viewModel.startOver.apply()
        loop.advance(by: .milliseconds(500))
        #expect(heartbeat.check())
        board.shutdown()
    }

    @Test("a wedged loop stops answering, however much work it had queued")
    func wedgedLoop() throws {
        let loop = ThreadScheduler(named: "test loop")
        defer { loop.stop() }
        let heartbeat = LoopHeartbeat(loop: loop)
        loop.runAndWait {}
        // The loop wedges inside an action; the heartbeat asked next waits behind it.
        let release = Protected(false)
        loop.schedule {
            while !release.value { usleep(1_000) }
        }
        for _ in 0..<100 { loop.schedule {} }
        #expect(heartbeat.check(), "the first heartbeat ran before the wedge")
        #expect(!heartbeat.check())
        #expect(!heartbeat.check())
        release.withValue { $0 = true }
        loop.runAndWait {}
        #expect(heartbeat.check())
    }
}
