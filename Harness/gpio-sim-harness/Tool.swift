import ArgumentParser
import Devices
import Foundation
import GPIO
import TicTacToe

/// Small commands on an existing gpio-sim chip, for shell-driven tests (the systemd VM), each
/// `gpio-sim-harness tool COMMAND DEVICE CHIP …`.
struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Small commands on an existing gpio-sim chip, for the appliance VM's shell tests.",
        subcommands: [FrameTool.self, TimingTool.self, PatternTool.self, TapTool.self, LEDsTool.self])
}

/// The chip a tool works on.
struct SimChip: ParsableArguments {
    @Argument(help: "The gpio-sim device (gpio-sim.0).")
    var device: String

    @Argument(help: "The chip's name (gpiochip1).")
    var chip: String

    var sim: GPIOSim { GPIOSim.existing(device: device, chip: chip) }
    var leds: LEDWatcher { LEDWatcher(sim: sim, pins: PinMap.standard) }
}

/// `frame DEVICE CHIP [SECONDS]`: the frame seen, on one line.
struct FrameTool: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "frame", abstract: "Print the frame seen over SECONDS, on one line.")
    @OptionGroup var chip: SimChip
    @Argument var seconds = 0.6

    func run() throws {
        print(try chip.leds.frame(over: seconds).description.replacingOccurrences(of: "\n", with: "|"))
    }
}

/// `timing DEVICE CHIP [SECONDS]`: each lit LED's duty and refresh rate, and the scan's frame
/// rate, as JSON.
struct TimingTool: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "timing", abstract: "Print each lit LED's duty and refresh rate as JSON.")
    @OptionGroup var chip: SimChip
    @Argument var seconds = 1.0

    func run() throws {
        try printJSON(try chip.leds.record(seconds: seconds).timings())
    }
}

/// `pattern DEVICE CHIP KEY SECONDS`: the light of the cell of keypad key KEY (7 top left, as
/// `tictactoe press` numbers them) in 10 ms bins, and its pattern read without colour
/// (``LineRecording/CellPattern``), as JSON.
struct PatternTool: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pattern", abstract: "Print one cell's light in 10 ms bins and its pattern, as JSON.")
    @OptionGroup var chip: SimChip
    @Argument(help: "The cell's keypad key, 1-9.") var key: Int
    @Argument var seconds: Double

    func run() throws {
        guard let cell = Position(keypadKey: key) else { throw ValidationError("KEY is \(key); give 1 to 9.") }
        try printJSON(try chip.leds.record(seconds: seconds).pattern(ofCell: cell.index, bin: 10_000_000), keys: .convertToSnakeCase)
    }
}

/// `tap DEVICE CHIP LINE [HOLD]`: a press and release with contact bounce.
struct TapTool: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tap", abstract: "Press and release a line, with contact bounce.")
    @OptionGroup var chip: SimChip
    @Argument var line: Int
    @Argument var hold = 0.15

    func run() {
        let sim = chip.sim
        sim.bounce(line, endingUp: false)
        Thread.sleep(forTimeInterval: hold)
        sim.bounce(line, endingUp: true)
    }
}

/// `leds DEVICE CHIP [SECONDS]`: "on" or "off", whether any LED line was high at any moment of
/// SECONDS. Over a while, not at one moment: the scan blanks the matrix before each row, and a
/// dim status LED is dark three frames in four.
struct LEDsTool: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "leds", abstract: "Print on or off: any LED line high over SECONDS.")
    @OptionGroup var chip: SimChip
    @Argument var seconds = 0.3

    func run() throws {
        print(try chip.leds.anyLit(over: seconds) ? "on" : "off")
    }
}

/// Prints `value` as one line of JSON (keys sorted).
private func printJSON(_ value: some Encodable, keys: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.keyEncodingStrategy = keys
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
