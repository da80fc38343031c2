import Devices
import GPIO
import Lights
import Reactive
import SimulatedGPIO
import TicTacToe

/// A person at a simulated board: presses buttons by driving the simulated chip's input lines
/// and looks at the LEDs by decoding its output lines. Used by the terminal game and the tests;
/// it never touches the game's objects, only the chip.
public final class SimulatedBoard: Sendable {
    public let chip: SimulatedChip
    public let pins: PinMap
    public let scheduler: any Scheduler
    public let eye: FramePerception

    /// - Parameter dimCycle: the board's (its settings'), so that the eye knows how dim a dim LED is.
    public init(
        chip: SimulatedChip, pins: PinMap, scheduler: any Scheduler, eyeWindow: Duration = FramePerception.eyeWindow, dimCycle: DimCycle = .standard
    ) {
        self.chip = chip
        self.pins = pins
        self.scheduler = scheduler
        self.eye = FramePerception(pins: pins, window: eyeWindow, dimCycle: dimCycle)
    }

    /// Pushes a cell's button down (and keeps it down).
    public func press(_ position: Position) { push(pins.button(for: position)) }
    /// Lets a cell's button go.
    public func release(_ position: Position) { letGo(pins.button(for: position)) }

    /// Presses a cell's button and releases it `duration` later; with `bounce`, both contacts
    /// chatter for a few milliseconds first, as cheap switches do.
    public func tap(_ position: Position, for duration: Duration = .milliseconds(120), bounce: Bool = false) {
        tap(pins.button(for: position), for: duration, bounce: bounce)
    }

    /// Presses the new-game button and releases it `duration` later.
    public func pressNewGame(for duration: Duration = .milliseconds(120), bounce: Bool = false) {
        tap(pins.newGameButton, for: duration, bounce: bounce)
    }

    /// The opponent gesture: holds new game down, taps `cell` 100 ms later, and lets new game go
    /// 100 ms after the tap ends.
    public func chooseNextOpponent(tapping cell: Position = Position.all[0], bounce: Bool = false) {
        pushNewGame()
        scheduler.schedule(after: .milliseconds(100)) { [weak self] in self?.tap(cell, bounce: bounce) }
        scheduler.schedule(after: .milliseconds(320)) { [weak self] in self?.releaseNewGame() }
    }

    public func pushNewGame() { push(pins.newGameButton) }
    public func releaseNewGame() { letGo(pins.newGameButton) }

    /// What an eye sees now.
    public var seenFrame: Frame { eye.frame(on: chip, endingAt: scheduler.now) }

    private func tap(_ offset: LineOffset, for duration: Duration, bounce: Bool) {
        let down = pins.buttonPolarity.level(active: true)
        if bounce {
            chip.bounce(offset, settlingAt: down, toggles: 5, spacing: .microseconds(600))
            scheduler.schedule(after: duration) { [chip] in
                chip.bounce(offset, settlingAt: nil, toggles: 5, spacing: .microseconds(600))
            }
        } else {
            push(offset)
            scheduler.schedule(after: duration) { [weak self] in self?.letGo(offset) }
        }
    }

    private func push(_ offset: LineOffset) { chip.drive(offset, to: pins.buttonPolarity.level(active: true)) }
    private func letGo(_ offset: LineOffset) { chip.drive(offset, to: nil) }
}
