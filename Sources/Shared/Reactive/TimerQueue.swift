import Basics
import Synchronization

/// An action for a scheduler, and the disposable that cancels it: one object, so that
/// scheduling costs one allocation besides the closure, and none when an action made once is
/// scheduled again and again (``Scheduler/schedule(prepared:)``).
public final class ScheduledAction: Disposable {
    let action: @Sendable () -> Void
    private let cancelled = Atomic(false)
    /// Whether a run set by ``Scheduler/schedule(prepared:at:repeatingEvery:)`` is pending (a
    /// repeating one stays pending until cancelled). Written by the scheduler's queue under its
    /// lock; read on the scheduler, by the timer built on it (``LoopTimer/isSet``).
    public internal(set) nonisolated(unsafe) var isSet = false

    /// An action to hand to ``Scheduler/schedule(prepared:)`` as often as it is needed.
    public init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    /// Once disposed, the action never runs again, wherever it is queued.
    public var isDisposed: Bool { cancelled.load(ordering: .acquiring) }
    public func dispose() { cancelled.store(true, ordering: .releasing) }
}

/// The pending actions of a scheduler, in deadline order with ties in scheduling order: the
/// bookkeeping ``TestScheduler`` and ``ThreadScheduler`` share. Not thread-safe: its owner locks.
///
/// A binary min-heap on (deadline, sequence): adding and taking the next action cost
/// O(log n). A cancelled action stays until it reaches the top, where it is dropped; when
/// cancelled ones pile up (an idle countdown restarted on every press), they are swept out.
struct TimerQueue {
    struct Entry {
        var deadline: MonotonicInstant
        var sequence: Int
        /// The repeat interval in nanoseconds (converted once: `Duration` arithmetic is 128-bit).
        var interval: Int64?
        var scheduled: ScheduledAction
    }

    /// An action taken from the queue to run, and the time it was due.
    struct Due {
        var deadline: MonotonicInstant
        var scheduled: ScheduledAction

        func run() { scheduled.action() }
    }

    private var heap: [Entry]
    private var sequence = 0
    private var sweepAt = 64

    /// Room for the sweep threshold from the start: a game loop's queue (a scan, a few timers,
    /// a hop's drain) never grows it, so scheduling does not allocate for the heap.
    init() {
        heap = []
        heap.reserveCapacity(64)
    }

    /// Adds an action; disposing the returned token cancels it.
    mutating func insert(
        at deadline: MonotonicInstant, repeatingEvery interval: Duration?, _ action: @escaping @Sendable () -> Void
    ) -> ScheduledAction {
        let scheduled = ScheduledAction(action)
        push(Entry(deadline: deadline, sequence: nextSequence(), interval: interval?.nanoseconds, scheduled: scheduled))
        if heap.count >= sweepAt { sweep() }
        return scheduled
    }

    /// Adds an action made beforehand, to run once at `deadline`: no allocation while the heap
    /// has room.
    mutating func insert(_ scheduled: ScheduledAction, at deadline: MonotonicInstant) {
        push(Entry(deadline: deadline, sequence: nextSequence(), interval: nil, scheduled: scheduled))
        if heap.count >= sweepAt { sweep() }
    }

    /// Queues `scheduled` at `deadline` (then every `interval`, when given) in place of its
    /// pending run, if it has one: a timer set again. No allocation while the heap has room.
    mutating func set(_ scheduled: ScheduledAction, at deadline: MonotonicInstant, repeatingEvery interval: Duration?) {
        unset(scheduled)
        scheduled.isSet = true
        push(Entry(deadline: deadline, sequence: nextSequence(), interval: interval?.nanoseconds, scheduled: scheduled))
        if heap.count >= sweepAt { sweep() }
    }

    /// Drops the pending run of `scheduled`, if it has one.
    mutating func unset(_ scheduled: ScheduledAction) {
        guard scheduled.isSet else { return }
        scheduled.isSet = false
        guard let index = heap.firstIndex(where: { $0.scheduled === scheduled }) else { return }
        heap.withUnsafeMutableBufferPointer { heap in heap.swapAt(index, heap.count - 1) }
        heap.removeLast()
        guard index < heap.count else { return }
        // The entry moved into the hole may belong above it or below it.
        siftUp(index)
        siftDown(index)
    }

    /// The earliest deadline among live actions.
    mutating func nextDeadline() -> MonotonicInstant? {
        dropCancelledTop()
        return heap.isEmpty ? nil : heap[0].deadline
    }

    var liveCount: Int { heap.lazy.filter { !$0.scheduled.isDisposed }.count }

    /// Removes and returns the earliest live action due by `limit`. A repeating one is queued
    /// again one interval on; with `skippingMissedAfter`, one that has fallen more than an
    /// interval behind that time is moved to an interval after it instead of bursting.
    @inline(__always)  // The scan's every step: inlined into the scheduler, as it was before timers were set in place.
    mutating func popDue(by limit: MonotonicInstant, skippingMissedAfter now: MonotonicInstant? = nil) -> Due? {
        dropCancelledTop()
        // Entries are read in place (`heap[0].…`): copying one out retains its action.
        guard !heap.isEmpty, heap[0].deadline <= limit else { return nil }
        guard let interval = heap[0].interval else {
            // Moved out of the heap, not copied: its action changes hands without a retain.
            let top = removeTop()
            top.scheduled.isSet = false
            return Due(deadline: top.deadline, scheduled: top.scheduled)
        }
        let due = Due(deadline: heap[0].deadline, scheduled: heap[0].scheduled)
        // Requeue in place: the same entry, one interval on, sifted down from the top, in one
        // access to the buffer (each write through the array checks its uniqueness).
        var deadline = due.deadline.nanoseconds + interval
        if let now, deadline + interval < now.nanoseconds { deadline = now.nanoseconds + interval }
        let sequence = nextSequence()
        heap.withUnsafeMutableBufferPointer { heap in
            heap[0].deadline.nanoseconds = deadline
            heap[0].sequence = sequence
            Self.siftDown(0, in: heap)
        }
        return due
    }

    private mutating func nextSequence() -> Int {
        defer { sequence += 1 }
        return sequence
    }

    // Read first, without mutating: a mutating loop makes the array check its uniqueness
    // before looking at the top, on every call.
    @inline(__always)
    private mutating func dropCancelledTop() {
        guard topIsCancelled else { return }
        repeat { _ = removeTop() } while topIsCancelled
    }

    private var topIsCancelled: Bool { !heap.isEmpty && heap[0].scheduled.isDisposed }

    /// Whether `a` runs before `b`: (deadline, sequence) order.
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline.nanoseconds < b.deadline.nanoseconds
            || (a.deadline.nanoseconds == b.deadline.nanoseconds && a.sequence < b.sequence)
    }

    private mutating func sweep() {
        heap.removeAll { $0.scheduled.isDisposed }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        sweepAt = max(64, heap.count * 2)
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        siftUp(heap.count - 1)
    }

    private mutating func siftUp(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
    }

    /// Takes the top out, the last entry in its place, sifted down.
    private mutating func removeTop() -> Entry {
        heap.withUnsafeMutableBufferPointer { heap in heap.swapAt(0, heap.count - 1) }
        let top = heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        return top
    }

    // On the buffer: a scan's timer is sifted on every step, and the array's own subscripts
    // would check bounds and uniqueness at every comparison and swap.
    private mutating func siftDown(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in Self.siftDown(start, in: heap) }
    }

    private static func siftDown(_ start: Int, in heap: UnsafeMutableBufferPointer<Entry>) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            var first = left
            if right < heap.count, precedes(heap[right], heap[left]) { first = right }
            guard precedes(heap[first], heap[parent]) else { return }
            heap.swapAt(first, parent)
            parent = first
        }
    }
}
