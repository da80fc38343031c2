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
public final class Button: Sendable {
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
    private let debouncer: Protected<Debouncer>
    private let settleTimer = SerialDisposable()
    private let scheduler: any Scheduler

    init(offset: LineOffset, polarity: Polarity, initialLevel: LineLevel, debounce: Duration, scheduler: any Scheduler) {
        self.offset = offset
        self.polarity = polarity
        self.scheduler = scheduler
        (changes, changeInput) = Signal<(down: Bool, at: MonotonicInstant)>.pipe()
        presses = changes.filter(\.down).map(\.at)
        releases = changes.filter { !$0.down }.map(\.at)
        isPressed = Property(initial: polarity.isActive(initialLevel), then: changes.map(\.down))
        debouncer = Protected(Debouncer(window: debounce, initialLevel: initialLevel))
    }

    deinit { settleTimer.dispose() }

    /// Feeds one edge of this button's line. Call on the scheduler.
    func handle(_ event: EdgeEvent) {
        let (change, deadline) = debouncer.withValue { debouncer in
            (debouncer.edge(to: event.edge.level, at: event.timestamp), debouncer.settleDeadline)
        }
        if let change { announce(change, at: event.timestamp) }
        if change != nil, let deadline { armSettle(at: deadline) }
    }

    /// How long after a window's end the settle check waits for edges stamped inside the
    /// window but handed over late by a busy reader thread. It delays only the rare settle
    /// case (a tap shorter than the window), never a press.
    static let deliveryMargin: Duration = .milliseconds(50)

    private func armSettle(at deadline: MonotonicInstant) {
        let checkAt = deadline + Self.deliveryMargin
        settleTimer.inner = scheduler.schedule(at: checkAt) { [weak self] in
            guard let self else { return }
            let (change, next) = debouncer.withValue { ($0.settle(at: checkAt), $0.settleDeadline) }
            if let change {
                announce(change, at: deadline)
                if let next { armSettle(at: next) }
            }
        }
    }

    private func announce(_ level: LineLevel, at time: MonotonicInstant) {
        changeInput.send((polarity.isActive(level), time))
    }
}
