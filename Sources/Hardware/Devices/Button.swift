import Basics
import GPIO
import Reactive

/// One push-button on one input line, debounced on its edge timestamps.
///
/// ## Contract
/// - Edges are handed in by the owner (``ButtonPad``) on its scheduler; the owner hears each
///   debounced change first, by a direct call, then ``isPressed``, ``presses`` and ``releases``
///   follow it, stamped with the edge's time (or the settle time, when the level is only known
///   once the debounce window ends). All three are derived when asked for: unobserved, they
///   cost nothing per change.
/// - Presses and releases strictly alternate, starting from the level read at creation: a
///   button already held down at start produces a release first, never a phantom press.
/// - A settle check is scheduled only when edges arrive inside a debounce window (a bounce),
///   the only case in which it can change anything: a clean press schedules no timer.
/// - Confined to the scheduler, so its debouncer and timer need no lock.
public final class Button: @unchecked Sendable {
    public let offset: LineOffset
    public let polarity: Polarity
    /// Debounced presses, with their time.
    public var presses: Signal<MonotonicInstant> { changes.filter(\.down).map(\.at) }
    /// Debounced releases, with their time.
    public var releases: Signal<MonotonicInstant> { changes.filter { !$0.down }.map(\.at) }
    /// Whether the button is down, debounced: made on the scheduler when asked for (waiting
    /// for it from another thread), then following every change.
    public var isPressed: Property<Bool> {
        scheduler.runAndWait { [self] in Property(initial: isDown, then: changes.map { $0.down }) }
    }
    /// The owner's reaction to each debounced change, called before anything else hears of
    /// it. A constant, so that calling it retains nothing; it must not refer to the button.
    private let changed: @Sendable (_ down: Bool, _ at: MonotonicInstant) -> Void

    /// Every debounced change, the one source `presses` and `releases` derive from.
    private let changes: Signal<(down: Bool, at: MonotonicInstant)>
    private let changeInput: Signal<(down: Bool, at: MonotonicInstant)>.Input
    private var debouncer: Debouncer
    /// The settle check: when the window that needs it ends, a delivery margin later.
    private var settle: LoopTimer?
    private var settleWindowEnd = MonotonicInstant.zero
    private let scheduler: any Scheduler

    /// - Parameter changed: the owner's reaction to each debounced change.
    init(
        offset: LineOffset, polarity: Polarity, initialLevel: LineLevel, debounce: Duration, scheduler: any Scheduler,
        changed: @escaping @Sendable (_ down: Bool, _ at: MonotonicInstant) -> Void
    ) {
        self.offset = offset
        self.changed = changed
        self.polarity = polarity
        self.scheduler = scheduler
        (changes, changeInput) = Signal<(down: Bool, at: MonotonicInstant)>.pipe(confinedTo: scheduler)
        debouncer = Debouncer(window: debounce, initialLevel: initialLevel)
    }

    /// Whether the button is down, debounced, for its owner on the scheduler (``isPressed``
    /// is the same fact for anyone, anywhere).
    var isDown: Bool { polarity.isActive(debouncer.stableLevel) }

    /// Feeds one edge of this button's line. Call on the scheduler.
    func handle(_ event: EdgeEvent) {
        let change = debouncer.edge(to: event.edge.level, at: event.timestamp)
        if let change {
            // A new window: a check pending for the last one has nothing left to settle.
            settle?.cancel()
            announce(change, at: event.timestamp)
        }
        armSettleIfNeeded()
    }

    /// How long after a window's end the settle check waits for edges stamped inside the
    /// window but handed over late by a busy reader thread. It delays only the rare settle
    /// case (a tap shorter than the window), never a press.
    static let deliveryMargin: Duration = .milliseconds(50)

    private func armSettleIfNeeded() {
        guard settle?.isSet != true, debouncer.hasEdgesToSettle, let deadline = debouncer.settleDeadline else { return }
        settleWindowEnd = deadline
        settleTimer.set(at: deadline + Self.deliveryMargin)
    }

    /// Made at the first bounce. It holds the button strongly: a weak reference would move every
    /// retain of the button, one per edge on the pad's way in, onto the runtime's slow side-table
    /// path, and an `unowned` one could be read destroyed if the pad went on another thread while
    /// the check ran. The pad invalidates it when it releases its lines, which lets the button go.
    private var settleTimer: LoopTimer {
        if let settle { return settle }
        let made = LoopTimer(on: scheduler) { [self] in
            let windowEnd = settleWindowEnd
            if let change = debouncer.settle(at: windowEnd + Self.deliveryMargin) { announce(change, at: windowEnd) }
            armSettleIfNeeded()
        }
        settle = made
        return made
    }

    /// Cancels the settle check for good and lets it go (it holds the button): for the pad's
    /// release.
    func invalidateTimers() { settle?.invalidate() }

    private func announce(_ level: LineLevel, at time: MonotonicInstant) {
        let down = polarity.isActive(level)
        changed(down, time)
        changeInput.send((down, time))
    }
}
