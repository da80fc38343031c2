import Devices
import Foundation
import GPIO
import Lights

/// What the board's LEDs show, read from the kernel's record of every write to their lines
/// (``KernelLineTrace``), judged per visit of the scan (``LineRecording``).
struct LEDWatcher {
    let sim: GPIOSim
    let pins: PinMap

    private var trace: KernelLineTrace { KernelLineTrace(sim: sim, pins: pins) }

    /// A recording of `seconds`, refused when the kernel could not keep all of it.
    func record(seconds: Double) throws -> LineRecording {
        let recording = try trace.record(seconds: seconds)
        guard recording.isWhole else { throw HarnessError("the kernel's trace lost \(recording.lost) records of the LED lines") }
        return recording
    }

    /// The frames of consecutive windows of `seconds` over a recording of `count` of them.
    ///
    /// While anything is lit the scan visits every row in turn, so a window in which some rows
    /// were visited and another hardly at all is one whose visits the emulator cut short (the
    /// board starved mid-window); such a window is lengthened within the recording until every
    /// row has had two of the dim cycle's lit frames, so fewer than `count` frames may come back.
    func frames(count: Int, each seconds: Double) throws -> [Frame] {
        let recording = try record(seconds: Double(count) * seconds)
        let visits = recording.visits(), length = Int64(seconds * 1e9)
        let enough = 2 * LineRecording.dimCycle.frames
        var frames: [Frame] = [], from = recording.start
        while from + length <= recording.end {
            var to = from + length
            func visited(_ row: Int) -> Int { visits[row].count { $0.start >= from && $0.start < to } }
            while to < recording.end, (0..<3).contains(where: { visited($0) > 0 }), (0..<3).contains(where: { visited($0) < enough }) {
                to = min(to + length / 10, recording.end)
            }
            frames.append(recording.frame(from: from, to: to, visits: visits))
            from = to
        }
        return frames
    }

    /// The frame shown over `seconds`.
    func frame(over seconds: Double) throws -> Frame {
        let recording = try record(seconds: seconds)
        return recording.frame(from: recording.start, to: recording.end, visits: recording.visits())
    }

    /// Whether any LED line was on at any moment of `seconds`.
    func anyLit(over seconds: Double) throws -> Bool { try record(seconds: seconds).anyLit }

    /// Whether every LED line is low right now (the chip's values, read once: for a board that
    /// has stopped writing).
    var allOff: Bool { pins.outputOffsets.allSatisfy { !pins.isActive(LineLevel(sim.value(Int($0.rawValue))), $0) } }
}
