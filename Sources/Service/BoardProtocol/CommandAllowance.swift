import Basics

/// How many commands a client of the board's relays may send (a page of the web view, the
/// broker's messages to the link): at most ``perSecond`` in any one second, so that one can play
/// as fast as a person taps but a script cannot flood the board.
///
/// A sliding window: the times of the last ``perSecond`` commands let through; one more passes
/// when the oldest of them is a second old. A value type on its relay's own thread; times come
/// from the caller (the monotonic clock in the service, virtual time in tests).
public struct CommandAllowance: Sendable, Hashable {
    public let perSecond: Int
    /// When the last commands let through were, oldest first; at most `perSecond`.
    private var passed: [MonotonicInstant] = []

    /// - Parameter perSecond: at least one (less is taken as one).
    public init(perSecond: Int = 10) {
        self.perSecond = max(1, perSecond)
    }

    /// Takes one command at `now`: `true` if the page may send it, `false` if it must wait.
    public mutating func take(at now: MonotonicInstant) -> Bool {
        if passed.count == perSecond {
            // A clock that seems to go back gives nothing back.
            guard let oldest = passed.first, now - oldest >= .seconds(1) else { return false }
            passed.removeFirst()
        }
        passed.append(now)
        return true
    }

    /// When the next command may pass, if one may not now: a second after the oldest of the
    /// last ``perSecond``.
    public var nextPass: MonotonicInstant? {
        passed.count == perSecond ? passed.first.map { $0 + .seconds(1) } : nil
    }

    /// What a refused page is sent.
    public func refusal(of command: String?) -> RequestError {
        RequestError(command: command, reason: .tooManyCommands, text: "too many commands: at most \(perSecond) a second")
    }
}
