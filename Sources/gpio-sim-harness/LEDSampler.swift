import Devices
import Foundation
import GPIO
import Lights

/// Decodes what the board's LEDs show from sampled gpio-sim line values.
///
/// The sampled levels are the gpio-sim lines' (the default, active-high wiring), and a cell is
/// judged lit by ``PinMap/color(ofCell:at:)``, as the simulation's eye judges it. Samples come
/// at arbitrary moments of the row scan, and under emulation the scan itself runs
/// unevenly (the guest's scheduler may pause it for milliseconds), so a cell is judged against
/// its own row: lit in red when the red column was on in at least half the samples taken while
/// its row was on. A status LED is lit when on in at least half of all samples.
struct LEDSampler {
    let sim: GPIOSim
    let pins: PinMap
    private let rows: [ValueReader]
    private let red: [ValueReader]
    private let green: [ValueReader]
    private let x: ValueReader
    private let o: ValueReader

    init?(sim: GPIOSim, pins: PinMap) {
        func readers(_ offsets: [LineOffset]) -> [ValueReader]? {
            let opened = offsets.compactMap { sim.valueReader(Int($0.rawValue)) }
            return opened.count == offsets.count ? opened : nil
        }
        guard let rows = readers(pins.rows), let red = readers(pins.redColumns),
              let green = readers(pins.greenColumns),
              let status = readers([pins.xStatus, pins.oStatus]) else { return nil }
        self.sim = sim
        self.pins = pins
        self.rows = rows
        self.red = red
        self.green = green
        x = status[0]
        o = status[1]
    }

    /// Samples for `duration`, and, once the scan has been seen at all, on (up to twice as long)
    /// until it has been seen to light every row at least twice; then returns the frame seen.
    ///
    /// While anything is lit the scan lights every row line in turn, marks or none (a dark
    /// matrix is not scanned at all), so with some rows seen and another never, the eye did not
    /// look long enough: on a host busy enough to starve the emulator, a 200 ms window can hold
    /// fewer scan cycles than rows. A scan that stops for longer than the limit still shows as
    /// the rows it left dark.
    func frame(over duration: TimeInterval) -> Frame {
        var redCount = [Int](repeating: 0, count: 9), greenCount = [Int](repeating: 0, count: 9)
        var rowCount = [Int](repeating: 0, count: 3)
        var xCount = 0, oCount = 0, samples = 0
        let started = Date()
        let deadline = started.addingTimeInterval(duration), limit = started.addingTimeInterval(2 * duration)
        while true {
            let now = Date()
            // Once any row has been seen lit the scan is running (a dark matrix is not scanned at
            // all), and it lights every row in turn: look on until each has been seen.
            let scanHalfSeen = rowCount.contains { $0 > 0 } && rowCount.contains { $0 < 2 }
            guard now < deadline || (now < limit && scanHalfSeen) else { break }
            samples += 1
            if x.isHigh { xCount += 1 }
            if o.isHigh { oCount += 1 }
            for row in 0..<3 where rows[row].isHigh {
                var levels = LineLevels()
                levels[pins.rows[row]] = .high
                for column in 0..<3 {
                    levels[pins.redColumns[column]] = LineLevel(red[column].isHigh)
                    levels[pins.greenColumns[column]] = LineLevel(green[column].isHigh)
                }
                // Only a sample in which the row is still on after reading the columns counts:
                // the scan may have moved on in between.
                guard rows[row].isHigh else { continue }
                rowCount[row] += 1
                for index in row * 3..<row * 3 + 3 {
                    let color = pins.color(ofCell: index, at: levels)
                    if color.isRedLit { redCount[index] += 1 }
                    if color.isGreenLit { greenCount[index] += 1 }
                }
            }
        }
        let cells = (0..<9).map { index -> LEDColor in
            let seen = rowCount[index / 3]
            guard seen > 0 else { return .off }
            return LEDColor(red: redCount[index] * 2 >= seen, green: greenCount[index] * 2 >= seen)
        }
        let total = max(samples, 1)
        return Frame(cells: cells, xStatus: xCount * 2 >= total, oStatus: oCount * 2 >= total)
    }

    /// Whether every LED line is low right now.
    var allOff: Bool { pins.outputOffsets.allSatisfy { !sim.value(Int($0.rawValue)) } }
}
