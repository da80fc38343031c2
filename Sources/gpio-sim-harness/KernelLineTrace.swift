import Devices
import Foundation
import GPIO

/// Records every value written to a gpio-sim chip's lines, as the kernel itself saw them: the
/// `gpio:gpio_value` trace event, which gpiolib emits for each line of each set through the
/// character device (the v1 and the v2 uAPI alike), stamped by the guest's monotonic clock.
///
/// A sampler that reads the lines' values in a loop shares the guest's processors with the
/// board and, under an emulator its host starves, misses scan steps in step with the dim cycle
/// or counts a stalled one many times; the kernel's record has every write, whenever the
/// recorder itself gets to run. Each recording uses a tracing instance of its own (its own
/// buffer), so two at once do not disturb each other, and removes it after.
///
/// Needs a kernel with tracing (`CONFIG_FTRACE` with event tracing, tracefs mounted) and the
/// GPIO sysfs class, which names each chip's first global line number.
struct KernelLineTrace {
    static let tracing = "/sys/kernel/tracing"

    let sim: GPIOSim
    let pins: PinMap

    /// The global number of the chip's line 0, from the GPIO class in sysfs (the trace event
    /// names lines by their global numbers).
    private func base() throws -> Int {
        let chips = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/gpio")) ?? []
        for chip in chips where chip.hasPrefix("gpiochip") {
            let directory = "/sys/class/gpio/\(chip)"
            // A chip's class entry sits under its parent, the platform device gpio-sim made
            // for our chip alone (one bank).
            let device = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory)) ?? ""
            if device.contains("/\(sim.deviceName)/gpio/"),
               let text = try? GPIOSim.read(directory + "/base"), let base = Int(text) {
                return base
            }
        }
        throw HarnessError("no /sys/class/gpio entry under \(sim.deviceName): the kernel needs CONFIG_GPIO_SYSFS")
    }

    /// Records the LED lines for `seconds`, then returns what the kernel recorded.
    func record(seconds: Double) throws -> LineRecording {
        let session = try Session(base: base(), lines: pins.outputOffsets)
        defer { session.remove() }
        try session.begin()
        let initial = levelsNow()
        let start = Self.monotonicNanoseconds()
        pause(seconds)
        let end = Self.monotonicNanoseconds()
        let (changes, lost) = try session.finish(lines: pins.outputOffsets)
        return LineRecording(pins: pins, start: start, end: end, initial: initial, changes: changes, lost: lost)
    }

    /// The LED lines' values now, read from sysfs one by one.
    private func levelsNow() -> LineLevels {
        var levels = LineLevels()
        for line in pins.outputOffsets { levels[line] = LineLevel(sim.value(Int(line.rawValue))) }
        return levels
    }

    static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// One tracing instance: made, set to record the chip's writes, read and removed.
    private struct Session {
        let directory: String
        let base: Int

        init(base: Int, lines: [LineOffset]) throws {
            self.base = base
            directory = "\(KernelLineTrace.tracing)/instances/gpio-sim-harness-\(getpid())-\(KernelLineTrace.monotonicNanoseconds())"
            guard FileManager.default.fileExists(atPath: KernelLineTrace.tracing + "/instances") else {
                throw HarnessError("no \(KernelLineTrace.tracing)/instances: the kernel needs CONFIG_FTRACE and tracefs mounted there")
            }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            let first = base + Int(lines.map(\.rawValue).min() ?? 0), last = base + Int(lines.map(\.rawValue).max() ?? 0)
            // The guest's monotonic clock, as the harness reads it; records dropped rather than
            // overwritten when the buffer is full, so that a loss is counted and not hidden.
            try write("mono", to: "trace_clock")
            try write("0", to: "options/overwrite")
            try write("16384", to: "buffer_size_kb")
            try write("gpio >= \(first) && gpio <= \(last) && get == 0", to: "events/gpio/gpio_value/filter")
        }

        func begin() throws {
            try write("1", to: "events/gpio/gpio_value/enable")
            try write("1", to: "tracing_on")
        }

        /// Stops recording and returns the changes of `lines` and how many records were lost.
        func finish(lines: [LineOffset]) throws -> ([LineRecording.Change], Int) {
            try write("0", to: "tracing_on")
            let text = try KernelLineTrace.readWhole(directory + "/trace")
            let wanted = Set(lines.map { base + Int($0.rawValue) })
            let changes = text.split(separator: "\n").compactMap { KernelLineTrace.change(in: $0, base: base, wanted: wanted) }
            return (changes, lost())
        }

        /// Records the buffer could not keep, over every processor.
        private func lost() -> Int {
            let cpus = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/per_cpu")) ?? []
            return cpus.reduce(0) { total, cpu in
                let stats = (try? String(contentsOfFile: "\(directory)/per_cpu/\(cpu)/stats", encoding: .utf8)) ?? ""
                return total + stats.split(separator: "\n").reduce(0) { sum, line in
                    let parts = line.split(separator: ":")
                    guard parts.count == 2, ["overrun", "dropped events"].contains(parts[0].trimmingCharacters(in: .whitespaces)) else { return sum }
                    return sum + (Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0)
                }
            }
        }

        func remove() {
            try? write("0", to: "events/gpio/gpio_value/enable")
            rmdir(directory)
        }

        private func write(_ text: String, to file: String) throws {
            try GPIOSim.write(text, to: "\(directory)/\(file)")
        }
    }

    /// The whole of a tracefs file: read until the end, not by the size the file claims (0).
    static func readWhole(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw HarnessError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw HarnessError("cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The change a line of the trace's text reports, if it is a write to one of `wanted`:
    /// `<task>-<pid> [<cpu>] <flags> <seconds>.<micro>: gpio_value: <gpio> set <0|1>`.
    static func change(in line: Substring, base: Int, wanted: Set<Int>) -> LineRecording.Change? {
        guard !line.hasPrefix("#"), let marker = line.range(of: ": gpio_value: ") else { return nil }
        let fields = line[marker.upperBound...].split(separator: " ")
        guard fields.count == 3, fields[1] == "set", let gpio = Int(fields[0]), wanted.contains(gpio),
              let value = Int(fields[2]) else { return nil }
        guard let stamp = line[..<marker.lowerBound].split(separator: " ").last, let time = nanoseconds(stamp) else { return nil }
        return LineRecording.Change(time: time, line: LineOffset(UInt32(gpio - base)), isHigh: value != 0)
    }

    /// `seconds.fraction` as nanoseconds.
    static func nanoseconds(_ stamp: Substring) -> Int64? {
        let parts = stamp.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int64(parts[0]), parts[1].count <= 9, let fraction = Int64(parts[1]) else { return nil }
        var scale: Int64 = 1
        for _ in parts[1].count..<9 { scale *= 10 }
        return seconds * 1_000_000_000 + fraction * scale
    }
}
