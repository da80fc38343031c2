import Foundation

/// A chip of the kernel's gpio-sim driver, made through configfs, with its lines' simulated
/// pulls (the outside world) and values (what the lines read or drive) in sysfs.
struct GPIOSim {
    let chipName: String
    let deviceName: String
    let label: String
    private let linesDirectory: String

    /// Creates and enables a simulated chip with `lines` lines and the given label.
    static func create(name: String = "tictactoe", lines: Int, label: String) throws -> GPIOSim {
        let root = "/sys/kernel/config/gpio-sim/\(name)"
        let bank = root + "/bank0"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: bank, withIntermediateDirectories: false)
        try write("\(lines)", to: bank + "/num_lines")
        try write(label, to: bank + "/label")
        try write("1", to: root + "/live")
        let device = try read(root + "/dev_name")
        let chip = try read(bank + "/chip_name")
        return GPIOSim(chipName: chip, deviceName: device, label: label,
                       linesDirectory: "/sys/devices/platform/\(device)/\(chip)")
    }

    /// A chip made earlier (by a boot script, say), from its platform device and chip names.
    static func existing(device: String, chip: String) -> GPIOSim {
        GPIOSim(chipName: chip, deviceName: device, label: "",
                linesDirectory: "/sys/devices/platform/\(device)/\(chip)")
    }

    /// Pulls a line up or down from outside: a button to ground is `pull(line, up: false)`.
    func pull(_ line: Int, up: Bool) {
        try? GPIOSim.write(up ? "pull-up" : "pull-down", to: "\(linesDirectory)/sim_gpio\(line)/pull")
    }

    /// Pulls a line through a burst of alternating levels, as fast as sysfs takes them (the
    /// file stays open), ending pulled `up` or not: contact bounce lasting well under a
    /// millisecond or two even under emulation, as real switches bounce.
    func bounce(_ line: Int, endingUp up: Bool, toggles: Int = 5) {
        let fd = open("\(linesDirectory)/sim_gpio\(line)/pull", O_WRONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // The burst must stay a bounce (shorter than the debounce window by the kernel's stamps):
        // for its few writes nothing in the VM may preempt this thread, the game included.
        // (The host can still starve the whole emulator; the host test checks the stamps.)
        var realtime = sched_param()
        realtime.sched_priority = 50
        let raised = pthread_setschedparam(pthread_self(), SCHED_FIFO, &realtime) == 0
        defer {
            if raised {
                var normal = sched_param()
                pthread_setschedparam(pthread_self(), SCHED_OTHER, &normal)
            }
        }
        for step in 0..<toggles {
            let pullUp = step % 2 == 0 ? up : !up
            let text = Array((pullUp ? "pull-up" : "pull-down").utf8)
            _ = pwrite(fd, text, text.count, 0)
        }
    }

    /// The line's value now: the level it drives (output) or reads (input).
    func value(_ line: Int) -> Bool {
        (try? GPIOSim.read("\(linesDirectory)/sim_gpio\(line)/value")) == "1"
    }

    /// An open value file, re-read with `pread` for fast sampling.
    func valueReader(_ line: Int) -> ValueReader? {
        let fd = open("\(linesDirectory)/sim_gpio\(line)/value", O_RDONLY)
        return fd >= 0 ? ValueReader(fd: fd) : nil
    }

    static func write(_ text: String, to path: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw HarnessError("cannot open \(path) for writing")
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(text.utf8))
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One line's sysfs value file, kept open: sysfs attributes are re-read from offset 0.
struct ValueReader {
    let fd: Int32

    var isHigh: Bool {
        var byte: UInt8 = 0
        return pread(fd, &byte, 1, 0) == 1 && byte == UInt8(ascii: "1")
    }
}
