/// How long the view model's animations and timeouts last.
public struct GameTimings: Sendable, Hashable {
    /// How long a refused press flickers its cell amber.
    public var illegalFlash: Duration
    /// Half a flicker period of a refused press: fast enough to read as unlike the blink (eight
    /// times its rate) and unlike a steady mark, slow enough for an eye to follow (10 Hz).
    public var flickerHalfPeriod: Duration
    /// Half a blink period: on this long, then off this long.
    public var blinkHalfPeriod: Duration
    /// How long without any press before the lights go to sleep.
    public var idleSleep: Duration
    /// How long the computer "thinks" before its move shows: long enough to see its turn come.
    public var computerThinking: Duration
    /// How long the matrix shows a newly chosen opponent.
    public var opponentShown: Duration
    /// How long a board waits for another board it plays, not heard, before it gives the game
    /// up and plays two players (``SessionState/giveUpWaiting(after:)``).
    public var otherBoardWait: Duration

    public init(
        illegalFlash: Duration = .milliseconds(400),
        blinkHalfPeriod: Duration = .milliseconds(400),
        idleSleep: Duration = .seconds(300),
        computerThinking: Duration = .milliseconds(600),
        opponentShown: Duration = .milliseconds(1500),
        flickerHalfPeriod: Duration = .milliseconds(50),
        otherBoardWait: Duration = .seconds(900)
    ) {
        self.flickerHalfPeriod = flickerHalfPeriod
        self.illegalFlash = illegalFlash
        self.blinkHalfPeriod = blinkHalfPeriod
        self.idleSleep = idleSleep
        self.computerThinking = computerThinking
        self.opponentShown = opponentShown
        self.otherBoardWait = otherBoardWait
    }
}
