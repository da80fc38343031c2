import Devices
import GPIO

extension GameBoard {
    /// Drives every LED line of `pins` to its off level on `chip` and lets the lines go: what a
    /// board leaves behind, however the program that drove it ended. Raspberry Pi GPIO drivers
    /// keep an output at its last level after its process dies, so a board killed mid-scan
    /// keeps a row lit until something does this (the service's `ExecStopPost=`).
    ///
    /// Throws, having requested nothing or released what it requested, when the pin map is bad
    /// or a line cannot be had (still held by another program, say).
    public static func switchLightsOff(chip: any GPIOChip, pins unchecked: PinMap) throws(BoardError) {
        let pins: PinMap
        do { pins = try unchecked.validated() } catch { throw .pinMap(error) }
        let lines: any OutputLines
        do {
            lines = try chip.requestOutputs(OutputConfiguration(
                offsets: pins.outputOffsets, initialLevel: .low, consumer: "tictactoe-lights-off"))
        } catch { throw .gpio(error) }
        defer { lines.release() }
        do { try lines.set(pins.allLEDsOff) } catch { throw .gpio(error) }
    }
}
