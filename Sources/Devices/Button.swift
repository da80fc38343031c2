import Basics
import GPIO
import Reactive

/// One push-button on one input line, debounced on its edge timestamps.
///
/// ## Contract
/// - Edges are handed in by the owner (``ButtonPad``) on its scheduler; ``presses`` and
///   ``releases`` are sent from there, stamped with the edge's time (or the settle time, when
///   the level is only known once the debounce window ends).
/// - Presses and releases strictly alternate, starting from the level read at creation: a
///   button already held down at start produces a release first, never a phantom press.
/// - A settle check is scheduled only when edges arrive inside a debounce window (a bounce),
///   the only case in which it can change anything: a clean press schedules no timer.
/// - Confined to the scheduler, so its debouncer and timer need no lock.
public final class Button: @unchecked Sendable {
    public let offset: LineOffset
    public let polarity: Polarity
    /// Debounced presses, with their time.
    public let presses: Signal<MonotonicInstant>
    /// Debounced releases, with their time.
    public let releases: Signal<MonotonicInstant>
    /// Whether the button is down, debounced.
    public let isPressed: Property<Bool>

    /// Every debounced change, the one source the three outputs above derive from.
    private let changes: Signal<(down: Bool, at: MonotonicInstant)>
    private let changeInput: Signal<(down: Bool, at: MonotonicInstant)>.Input
    private var debouncer: Debouncer
    private var settleTimer: (any Disposable)?
    private let scheduler: any Scheduler

    init(offset: LineOffset, polarity: Polarity, initialLevel: LineLevel, debounce: Duration, scheduler: any Scheduler) {
        self.offset = offset
        self.polarity = polarity
        self.scheduler = scheduler
        (changes, changeInput) = Signal<(down: Bool, at: MonotonicInstant)>.pipe()
        presses = changes.filter(\.down).map(\.at)
        releases = changes.filter { !$0.down }.map(\.at)
        isPressed = Property(initial: polarity.isActive(initialLevel), then: changes.map(\.down))
        debouncer = Debouncer(window: debounce, initialLevel: initialLevel)
    }

    deinit { settleTimer?.dispose() }

    /// Feeds one edge of this button's line. Call on the scheduler.
    func handle(_ event: EdgeEvent) {
        let change = debouncer.edge(to: event.edge.level, at: event.timestamp)
        if let change {
            // A new window: a check pending for the last one has nothing left to settle.
            settleTimer?.dispose()
            settleTimer = nil
            announce(change, at: event.timestamp)
        }
        armSettleIfNeeded()
    }

    /// How long after a window's end the settle check waits for edges stamped inside the
    /// window but handed over late by a busy reader thread. It delays only the rare settle
    /// case (a tap shorter than the window), never a press.
    static let deliveryMargin: Duration = .milliseconds(50)

    private func armSettleIfNeeded() {
        guard settleTimer == nil, debouncer.hasEdgesToSettle, let deadline = debouncer.settleDeadline else { return }
        let checkAt = deadline + Self.deliveryMargin
        settleTimer = scheduler.schedule(at: checkAt) { [weak self] in
            guard let self else { return }
            settleTimer = nil
            if let change = debouncer.settle(at: checkAt) { announce(change, at: deadline) }
            armSettleIfNeeded()
        }
    }

    private func announce(_ level: LineLevel, at time: MonotonicInstant) {
        changeInput.send((polarity.isActive(level), time))
    }
}
