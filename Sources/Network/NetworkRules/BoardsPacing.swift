import Basics

/// When `tictactoe boards` prints the list: first once the broker has sent what it keeps (at
/// each connection), then, live, after each change, at most every ``interval``.
///
/// The broker sends the retained states and presences at once after the subscription, but marks
/// no end to them; the first list waits until none has come for ``settle``. A flood of changes
/// (a hundred boards playing) is printed as it stands at most every ``interval``, never queued.
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
    public var interval: Duration = .milliseconds(250)
    public var patience: Duration = .seconds(10)

    private let started: MonotonicInstant
    /// The last message heard, or the connection, whichever came later; `nil` before it.
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
        lastHeard = now
        printedAt = nil
        changedSincePrint = false
    }

    /// A message came; `changed`: it changed the list.
    public mutating func heard(at now: MonotonicInstant, changed: Bool) {
        if let last = lastHeard { lastHeard = max(last, now) }
        if changed { changedSincePrint = true }
    }

    public mutating func printed(at now: MonotonicInstant) {
        printedAt = now
        changedSincePrint = false
    }

    public func next(now: MonotonicInstant) -> Decision {
        guard let lastHeard else {
            return now >= started + patience ? .giveUp : .wait(until: started + patience)
        }
        guard let printedAt else {
            let settled = lastHeard + settle
            return now >= settled ? .print : .wait(until: settled)
        }
        guard changedSincePrint else { return .wait(until: nil) }
        let due = printedAt + interval
        return now >= due ? .print : .wait(until: due)
    }
}
