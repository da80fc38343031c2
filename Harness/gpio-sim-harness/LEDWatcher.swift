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
    /// board starved mid-window); such a window is lengthened within the recording, a tenth at a
    /// time while the scan goes on, until every row has had two dim cycles' worth of visits, so
    /// fewer than `count` frames may come back. A stretch the scan stopped in (a blink's dark
    /// phase) ends the lengthening: it is the next window's. A window a starved emulator left
    /// unreadable says so (``LineRecording/Starved``) in its place.
    func frames(count: Int, each seconds: Double) throws -> [Result<Frame, LineRecording.Starved>] {
        let recording = try record(seconds: Double(count) * seconds)
        let visits = recording.visits(), length = Int64(seconds * 1e9)
        let enough = 2 * LineRecording.dimCycle.frames
        var frames: [Result<Frame, LineRecording.Starved>] = [], from = recording.start
        while from + length <= recording.end {
            var to = from + length
            func visited(_ row: Int, _ from: Int64, _ to: Int64) -> Int { visits[row].count { $0.start >= from && $0.start < to } }
            while to < recording.end, (0..<3).contains(where: { visited($0, from, to) > 0 }),
                  (0..<3).contains(where: { visited($0, from, to) < enough }) {
                let next = min(to + length / 10, recording.end)
                guard (0..<3).contains(where: { visited($0, to, next) > 0 }) else { break }
                to = next
            }
            frames.append(recording.frame(from: from, to: to, visits: visits))
            from = to
        }
        return frames
    }

    /// The frame shown over `seconds`; an error if the emulator starved it unreadable.
    func frame(over seconds: Double) throws -> Frame {
        let recording = try record(seconds: seconds)
        return try recording.frame(from: recording.start, to: recording.end, visits: recording.visits()).get()
    }

    /// Whether any LED line was on at any moment of `seconds`.
    func anyLit(over seconds: Double) throws -> Bool { try record(seconds: seconds).anyLit }

    /// Whether every LED line is low right now (the chip's values, read once: for a board that
    /// has stopped writing).
    var allOff: Bool { pins.outputOffsets.allSatisfy { !pins.isActive(LineLevel(sim.value(Int($0.rawValue))), $0) } }
}
