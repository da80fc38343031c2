import Reactive
import Synchronization

/// Whether the game loop is alive, asked of the loop itself: each ``check()`` looks whether the
/// loop ran the heartbeat action asked for at the previous check, and asks for the next one.
///
/// The watchdog must not infer liveness from the loop's own work: a dark, idle board schedules
/// nothing at all (no scan, no timers), yet is alive, and a loop wedged inside an action runs
/// nothing, whatever is queued. A heartbeat is an action like any other, so the loop runs it
/// exactly when it runs actions. At most one heartbeat waits at a time, so a wedged loop does
/// not pile them up.
public final class LoopHeartbeat: Sendable {
    private let loop: any Scheduler
    private let asked = Atomic(0)
    private let answered = Atomic(0)

    /// Asks `loop` for the first heartbeat.
    public init(loop: any Scheduler) {
        self.loop = loop
        ask()
    }

    /// Whether the loop ran the last heartbeat asked for; if so, asks for the next.
    public func check() -> Bool {
        guard answered.load(ordering: .acquiring) == asked.load(ordering: .acquiring) else { return false }
        ask()
        return true
    }

    private func ask() {
        let number = asked.add(1, ordering: .acquiringAndReleasing).newValue
        loop.schedule { [self] in answered.store(number, ordering: .releasing) }
    }
}
