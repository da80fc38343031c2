import Foundation
import GPIO
import Testing
@testable import KernelGPIO

/// What can be checked of the libgpiod chip without GPIO hardware; the real-kernel suite
/// (vm/) runs it against gpio-sim for everything else.
@Suite("libgpiod chip, without a chip")
struct LibgpiodChipTests {
    @Test("no chips in a folder lists none, and opening by label says so and what to give")
    func noChips() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-gpio-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(LibgpiodChip.availableChips(devices: empty.path).isEmpty)
        #expect(throws: GPIOError.chipNotFound(spec: "pinctrl-bcm2711", available: [])) {
            try LibgpiodChip.open("pinctrl-bcm2711", devices: empty.path)
        }
    }

    @Test("a path that is no GPIO chip is refused as such, with either libgpiod")
    func notAChip() throws {
        #expect(throws: GPIOError.notAGPIOChip(path: "/dev/null")) { try LibgpiodChip.open("/dev/null") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-chip-\(getpid())")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: GPIOError.notAGPIOChip(path: file.path)) { try LibgpiodChip.open(file.path) }
        #expect(throws: GPIOError.chipNotFound(spec: "/dev/no-such-gpiochip", available: LibgpiodChip.availableChips())) {
            try LibgpiodChip.open("/dev/no-such-gpiochip")
        }
    }

    @Test("the library generation is reported")
    func library() {
        #expect(LibgpiodChip.libraryDescription.hasPrefix("libgpiod "))
        #expect(LibgpiodChip.libraryDescription.hasSuffix("API)"))
    }
}
