import Basics

/// When `tictactoe boards` prints the list: first once the broker has sent what it keeps (at
/// each connection), then, live, after each change, at most every ``interval``.
///
/// The broker sends the retained states and presences at once after the subscription, but marks
/// no end to them; the first list waits until no retained message has come for ``settle``, and
/// at most ``longestSettle`` after the connection (live changes, which any publisher can keep
/// coming, never hold it back). A flood of changes (a hundred boards playing) is printed as it
/// stands at most every ``interval``, never queued.
/// Pure: the caller passes the time (the command the clock, tests a virtual one).
public struct BoardsPacing: Sendable {
    public enum Decision: Sendable, Hashable {
        /// Print the list now (then call ``printed(at:)``).
        case print
        /// Nothing to do until that instant, or until something happens (`nil`).
        case wait(until: MonotonicInstant?)
        /// The broker has not let the client in within ``patience``: for a list printed once.
        case giveUp
    }

    public var settle: Duration = .milliseconds(500)
    public var longestSettle: Duration = .seconds(3)
    public var interval: Duration = .milliseconds(250)
    public var patience: Duration = .seconds(10)

    private let started: MonotonicInstant
    /// The connection, `nil` before it.
    private var connectedAt: MonotonicInstant?
    /// The last retained message heard, or the connection, whichever came later.
    private var lastHeard: MonotonicInstant?
    private var printedAt: MonotonicInstant?
    private var changedSincePrint = false

    public init(started: MonotonicInstant) {
        self.started = started
    }

    /// Whether the first list has been printed.
    public var hasPrinted: Bool { printedAt != nil }

    /// The broker let the client in (again): the retained messages follow the subscription, and
    /// the list, made afresh from them, is printed once they have settled (a board whose retained
    /// messages went while the client was away must not linger).
    public mutating func connected(at now: MonotonicInstant) {
        connectedAt = now
        lastHeard = now
        printedAt = nil
        changedSincePrint = false
    }

    /// A message came; `retained`: one the broker kept (the burst after a subscription);
    /// `changed`: it changed the list.
    public mutating func heard(at now: MonotonicInstant, retained: Bool, changed: Bool) {
        if retained, let last = lastHeard { lastHeard = max(last, now) }
        if changed { changedSincePrint = true }
    }

    public mutating func printed(at now: MonotonicInstant) {
        printedAt = now
        changedSincePrint = false
    }

    public func next(now: MonotonicInstant) -> Decision {
        guard let lastHeard, let connectedAt else {
            return now >= started + patience ? .giveUp : .wait(until: started + patience)
        }
        guard let printedAt else {
            let settled = min(lastHeard + settle, connectedAt + longestSettle)
            return now >= settled ? .print : .wait(until: settled)
        }
        guard changedSincePrint else { return .wait(until: nil) }
        let due = printedAt + interval
        return now >= due ? .print : .wait(until: due)
    }
}
