import Basics
import Dispatch
import Testing
import Foundation
@testable import Reactive
#if canImport(Glibc)
import Glibc
#endif

nonisolated(unsafe) var reviewTestThread: pthread_t = 0
nonisolated(unsafe) var reviewLoopThread: pthread_t = 0

@Suite("Review scratch")
struct ReviewScratchTests {
    @Test("where the owner's deinit runs", .timeLimit(.minutes(1)))
    func whereDeinit() {
        reviewTestThread = pthread_self()
        final class Owner: @unchecked Sendable {
            let timer: LoopTimer
            let gone: DispatchSemaphore
            let loop: ThreadScheduler
            init(loop: ThreadScheduler, gone: DispatchSemaphore) {
                timer = LoopTimer(on: loop) {}
                self.gone = gone
                self.loop = loop
            }
            deinit {
                print("deinit: thread \(pthread_self()) test \(reviewTestThread) loop \(reviewLoopThread) isSet=\(timer.isSet) current=\(loop.isCurrent)")
                print(Thread.callStackSymbols.prefix(24).joined(separator: "\n"))
                timer.invalidate()
                print("invalidated")
                gone.signal()
            }
        }
        let loop = ThreadScheduler(named: "test loop")
        let gone = DispatchSemaphore(value: 0)
        reviewLoopThread = loop.runAndWait { pthread_self() }
        do {
            let owner = Owner(loop: loop, gone: gone)
            loop.runAndWait { owner.timer.set(after: .seconds(3600)) }
            print("set: \(owner.timer.isSet)")
            loop.schedule(at: loop.now + .seconds(3600)) { withExtendedLifetime(owner) {} }
        }
        print("stopping")
        loop.stop()
        gone.wait()
    }
}
