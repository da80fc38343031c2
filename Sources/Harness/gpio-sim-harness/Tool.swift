import Devices
import Foundation
import GPIO
import TicTacToe

/// Small commands on an existing gpio-sim chip, for shell-driven tests (the systemd VM):
///
///     gpio-sim-harness tool DEVICE CHIP frame SECONDS   # print the frame seen, on one line
///     gpio-sim-harness tool DEVICE CHIP timing SECONDS  # each lit LED's duty and refresh rate, and the
///                                                       # scan's frame rate, as JSON
///     gpio-sim-harness tool DEVICE CHIP pattern KEY SECONDS  # one cell's light in 10 ms bins
///                                                       # and its pattern read without colour, as JSON
///                                                       # (the cell by its keypad key, as `tictactoe press`)
///     gpio-sim-harness tool DEVICE CHIP tap LINE [HOLD]  # press and release with bounce
///     gpio-sim-harness tool DEVICE CHIP leds [SECONDS]  # "on" or "off": any LED line high
///                                                       # at any moment of SECONDS (0.3)?
func runTool(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 3 else {
        FileHandle.standardError.write(Data("usage: gpio-sim-harness tool DEVICE CHIP frame SECONDS | timing SECONDS | pattern KEY SECONDS | tap LINE [HOLD] | leds [SECONDS]\n".utf8))
        return 64
    }
    let sim = GPIOSim.existing(device: arguments[0], chip: arguments[1])
    let pins = PinMap.standard
    let leds = LEDWatcher(sim: sim, pins: pins)
    do {
        return try run(arguments, sim: sim, leds: leds)
    } catch {
        FileHandle.standardError.write(Data("gpio-sim-harness: \(error)\n".utf8))
        return 70
    }
}

private func run(_ arguments: [String], sim: GPIOSim, leds: LEDWatcher) throws -> Int32 {
    switch arguments[2] {
    case "frame":
        let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 0.6 : 0.6
        print(try leds.frame(over: seconds).description.replacingOccurrences(of: "\n", with: "|"))
    case "timing":
        let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 1 : 1
        return printJSON(try leds.record(seconds: seconds).timings())
    case "pattern":
        return try printPattern(arguments, leds: leds)
    case "tap":
        guard arguments.count > 3, let line = Int(arguments[3]) else { return 64 }
        let hold = arguments.count > 4 ? Double(arguments[4]) ?? 0.15 : 0.15
        sim.bounce(line, endingUp: false)
        Thread.sleep(forTimeInterval: hold)
        sim.bounce(line, endingUp: true)
    case "leds":
        // Over a while, not at one moment: the scan blanks the matrix before each row, and a
        // dim status LED is dark three frames in four.
        let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 0.3 : 0.3
        print(try leds.anyLit(over: seconds) ? "on" : "off")
    default:
        return 64
    }
    return 0
}

/// `pattern KEY SECONDS`: the light of the cell of keypad key KEY (7 top left, as `tictactoe
/// press` numbers them) in 10 ms bins, and its pattern (``LineRecording/CellPattern``).
private func printPattern(_ arguments: [String], leds: LEDWatcher) throws -> Int32 {
    guard arguments.count > 4, let key = Int(arguments[3]), let cell = Position(keypadKey: key), let seconds = Double(arguments[4]) else {
        return 64
    }
    return printJSON(try leds.record(seconds: seconds).pattern(ofCell: cell.index, bin: 10_000_000), keys: .convertToSnakeCase)
}

/// Prints `value` as one line of JSON (keys sorted); 0, or 70 if it cannot be encoded.
private func printJSON(_ value: some Encodable, keys: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys) -> Int32 {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.keyEncodingStrategy = keys
    guard let json = try? encoder.encode(value) else { return 70 }
    print(String(decoding: json, as: UTF8.self))
    return 0
}
