import BoardSimulation
import Devices
import Lights
import Presentation
import SimulatedGPIO

/// What a person saw of the board over a stretch of time: the frame at a moment, plus which
/// lights blinked during the stretch. The scripted game prints this after each key.
public struct SeenBoard: Sendable, Hashable {
    /// The frame seen at the moment of looking.
    public var frame: Frame
    /// Cells that went on and off repeatedly, with the colour they had when on.
    public var blinkingCells: [Int: LEDColor]
    public var xBlinking: Bool
    public var oBlinking: Bool

    /// What the lights show for `state` over a blink period: its frame on the bright phase, and
    /// as blinking whatever the dark phase turns off. For views that have the state, not the
    /// lines (`tictactoe watch`).
    public init(showing state: SessionState) {
        var bright = state, dark = state
        bright.blinkOn = true
        dark.blinkOn = false
        frame = FrameRenderer.frame(of: bright)
        let dim = FrameRenderer.frame(of: dark)
        blinkingCells = [:]
        for cell in 0..<9 where frame.cells[cell] != dim.cells[cell] { blinkingCells[cell] = frame.cells[cell] }
        xBlinking = frame.xStatus != dim.xStatus
        oBlinking = frame.oStatus != dim.oStatus
    }

    init(frame: Frame, blinkingCells: [Int: LEDColor], xBlinking: Bool, oBlinking: Bool) {
        self.frame = frame
        self.blinkingCells = blinkingCells
        self.xBlinking = xBlinking
        self.oBlinking = oBlinking
    }

    /// Looks at `board` every `interval` from `start` for `count` samples; the first sample is
    /// the moment of looking. A light blinks when it turned on or off at least twice.
    static func watch(
        _ board: SimulatedBoard, advance: (Duration) -> Void, interval: Duration = .milliseconds(50), count: Int = 18
    ) -> SeenBoard {
        var samples: [Frame] = []
        for index in 0..<count {
            if index > 0 { advance(interval) }
            samples.append(board.seenFrame)
        }
        func transitions(_ isOn: (Frame) -> Bool) -> Int {
            zip(samples, samples.dropFirst()).filter { isOn($0) != isOn($1) }.count
        }
        var blinking: [Int: LEDColor] = [:]
        for cell in 0..<9 where transitions({ $0.cells[cell].isLit }) >= 2 {
            blinking[cell] = samples.first { $0.cells[cell].isLit }?.cells[cell]
        }
        return SeenBoard(
            frame: samples[0], blinkingCells: blinking,
            xBlinking: transitions(\.xStatus) >= 2, oBlinking: transitions(\.oStatus) >= 2)
    }
}
