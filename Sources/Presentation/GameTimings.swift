/// How long the view model's animations and timeouts last.
public struct GameTimings: Sendable, Hashable {
    /// How long an occupied cell flashes amber after it is pressed.
    public var illegalFlash: Duration
    /// Half a blink period: on this long, then off this long.
    public var blinkHalfPeriod: Duration
    /// How long without any press before the lights go to sleep.
    public var idleSleep: Duration

    public init(
        illegalFlash: Duration = .milliseconds(400),
        blinkHalfPeriod: Duration = .milliseconds(400),
        idleSleep: Duration = .seconds(300)
    ) {
        self.illegalFlash = illegalFlash
        self.blinkHalfPeriod = blinkHalfPeriod
        self.idleSleep = idleSleep
    }
}
