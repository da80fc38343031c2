import Basics
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GPIO
import GPIODShim
import Reactive

/// Output lines on a real chip, set in bulk with one call per `set`.
final class LibgpiodOutputLines: OutputLines, @unchecked Sendable {
    let offsets: [LineOffset]
    private let chip: LibgpiodChip
    private let request: OpaquePointer
    private let released = Protected(false)

    init(chip: LibgpiodChip, request: OpaquePointer, offsets: [LineOffset]) {
        self.chip = chip
        self.request = request
        self.offsets = offsets
    }

    deinit { release() }

    func set(_ settings: [LineSetting]) throws(GPIOError) {
        guard !released.value else { throw .released(chip: chip.name) }
        for setting in settings where !offsets.contains(setting.offset) {
            throw .notRequested(chip: chip.name, offset: setting.offset)
        }
        let raw = settings.map(\.offset.rawValue)
        let values = settings.map { Int32($0.level.isHigh ? 1 : 0) }
        let status = chip.synchronized { ttg_request_set_values(request, raw, values, raw.count) }
        guard status == 0 else {
            let code = errno
            throw .system(chip: chip.name, operation: "setting output lines", errno: code, message: String(cString: strerror(code)))
        }
    }

    func release() {
        let first = released.withValue { released -> Bool in
            defer { released = true }
            return !released
        }
        guard first else { return }
        chip.synchronized { ttg_request_release(request) }
    }
}
