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
/// buffer), so two at once do not disturb each other, and removes it after; its records are
/// read binary, page by page (``TracePage``).
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
        // The levels before the first write recorded: every change after is in the record.
        let initial = levelsNow()
        try session.begin()
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
            do {
                // The guest's monotonic clock, as the harness reads it; records dropped rather
                // than overwritten when the buffer is full, so that a loss is counted, not hidden.
                try write("mono", to: "trace_clock")
                try write("0", to: "options/overwrite")
                try write("16384", to: "buffer_size_kb")
                try write("gpio >= \(first) && gpio <= \(last) && get == 0", to: "events/gpio/gpio_value/filter")
            } catch {
                remove()
                throw error
            }
        }

        func begin() throws {
            try write("1", to: "events/gpio/gpio_value/enable")
            try write("1", to: "tracing_on")
        }

        /// Stops recording and returns the changes of `lines` (every processor's, in order of
        /// time; a processor's own are in the order it made them) and how many records were lost.
        func finish(lines: [LineOffset]) throws -> ([LineRecording.Change], Int) {
            try write("0", to: "tracing_on")
            guard let format = TracePage.EventFormat(try KernelLineTrace.readWhole("\(KernelLineTrace.tracing)/events/gpio/gpio_value/format")) else {
                throw HarnessError("cannot read the gpio_value event's format")
            }
            let pageSize = (Int((try? GPIOSim.read(directory + "/buffer_subbuf_size_kb")) ?? "") ?? 0) * 1024
            let wanted = Set(lines.map { base + Int($0.rawValue) })
            var changes: [LineRecording.Change] = [], lost = self.lost()
            let cpus = try FileManager.default.contentsOfDirectory(atPath: directory + "/per_cpu").filter { $0.hasPrefix("cpu") }
            for cpu in cpus {
                for page in try KernelLineTrace.pages(of: "\(directory)/per_cpu/\(cpu)/trace_pipe_raw", size: max(pageSize, Int(getpagesize()))) {
                    let (values, missed) = TracePage.lineValues(in: page, format: format)
                    lost += missed
                    changes += values.filter { !$0.isRead && wanted.contains($0.gpio) }
                        .map { LineRecording.Change(time: $0.time, line: LineOffset(UInt32($0.gpio - base)), isHigh: $0.value) }
                }
            }
            // Stable: records stamped alike keep their processor's order.
            let ordered = changes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            return (ordered, lost)
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
        String(decoding: try pages(of: path, size: 1 << 16, blocking: true).joined(), as: UTF8.self)
    }

    /// What a tracefs file hands out, read by reads of `size` until it has no more (a
    /// processor's `trace_pipe_raw`: a page a read, until it would wait).
    static func pages(of path: String, size: Int, blocking: Bool = false) throws -> [[UInt8]] {
        let fd = open(path, blocking ? O_RDONLY : O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw HarnessError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var pages: [[UInt8]] = []
        while true {
            var page = [UInt8](repeating: 0, count: size)
            let count = read(fd, &page, size)
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { break }
            guard count >= 0 else { throw HarnessError("cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            pages.append(Array(page[..<count]))
        }
        return pages
    }
}
