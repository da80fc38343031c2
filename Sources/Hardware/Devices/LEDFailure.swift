import GPIO

/// When failed writes to the LED lines are a failure of the board rather than a hiccup.
///
/// A write can fail once for a reason that passes (`EINTR` or `EAGAIN` from the kernel's line
/// ioctl, a driver busy for a moment): the scan writes again a row period later and the eye sees
/// nothing. Lines that keep failing (a chip unbound or removed, a line taken away, a bus error)
/// do not come back by themselves, and a dark board whose watchdog still pings is never
/// restarted. So the scan gives up once writes have failed without one success in between
/// both `writes` times **and** for `lasting` on the scheduler's clock: the count alone would
/// give up on a burst of a few milliseconds (the scan writes every 1–2 ms), the time alone on
/// one failed write followed by a stall of the loop.
///
/// The standard half second is long past any transient error's retry, and short enough that a
/// player sees a blink rather than a dark board: the service then stops and systemd starts it
/// again within about a second.
public struct PersistentWriteFailure: Sendable, Hashable {
    /// Failed writes in a row, at least.
    public var writes: Int
    /// From the first of them to the latest, at least.
    public var lasting: Duration

    public init(writes: Int, lasting: Duration) {
        self.writes = writes
        self.lasting = lasting
    }

    public static let standard = PersistentWriteFailure(writes: 3, lasting: .milliseconds(500))

    /// Whether `writes` failures in a row over `lasting` are persistent.
    public func holds(writes failed: Int, lasting failing: Duration) -> Bool {
        failed >= writes && failing >= lasting
    }
}

/// The LED lines failed for good (``PersistentWriteFailure``): how many writes in a row, for
/// how long, and the last error.
public struct LEDFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var writes: Int
    public var lasting: Duration
    public var last: GPIOError

    public init(writes: Int, lasting: Duration, last: GPIOError) {
        self.writes = writes
        self.lasting = lasting
        self.last = last
    }

    public var description: String {
        let milliseconds = lasting.components.seconds * 1000 + lasting.components.attoseconds / 1_000_000_000_000_000
        return "writing the LED lines failed \(writes) times in a row, for \(milliseconds) ms: \(last)"
    }
}
