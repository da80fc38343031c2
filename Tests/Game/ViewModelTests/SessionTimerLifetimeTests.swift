import Basics
import Reactive
import TestSupport
import TicTacToe
import Testing
@testable import ViewModel
#if canImport(Glibc)
import Glibc
#endif

/// The session's timers hold it weakly: its last reference may go on another thread (the
/// service's stop releases the board there) while the loop runs one of them. Held `unowned`,
/// as a first version of `LoopTimer`'s users did, the loop read the destroyed session and the
/// process trapped within a few dozen rounds (found by a review).
@Suite("The session's timers against a release off the loop")
struct SessionTimerLifetimeTests {
    // Exit tests arrived in Swift 6.2; under Debian's 6.0.3 this one is not compiled [6.0.3: exit-tests].
    #if compiler(>=6.2)
    @Test("a session released off its loop while its blink runs there: the process goes on", .process)
    func releasedOffTheLoop() async {
        await #expect(processExitsWith: .success) {
            let loop = ThreadScheduler(named: "test loop")
            // The learner to move shows its box: the blink runs from the start, every
            // microsecond, so that a release often lands while it runs.
            let timings = GameTimings(blinkHalfPeriod: .microseconds(1))
            for _ in 0..<5_000 {
                var session: GameSession? = GameSession(
                    snapshot: GameSnapshot(board: Board(starter: .o), opponent: .learner), timings: timings, scheduler: loop)
                usleep(20)
                _ = session
                session = nil
            }
            loop.stop()
        }
    }
    #endif
}
