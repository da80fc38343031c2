#if canImport(Glibc)
import Glibc
#endif
import Basics
import GPIO
import GPIODShim
import Reactive

/// A real GPIO chip through libgpiod (v1 or v2, whichever this was built against).
///
/// ## Contract
/// - ``open(_:)`` finds a chip by device path, by name (`gpiochip0`) or by label
///   (`pinctrl-bcm2711`); a label is the robust choice on a Pi, where the header chip moved from
///   gpiochip4 to gpiochip0 with the Pi 5. Errors name the chips that do exist.
/// - Input requests deliver edge events from a reader thread blocked in `poll()`: no polling
///   loop, no CPU while nobody presses. Events of one wake-up are sent in timestamp order.
/// - A second request for a line held elsewhere fails with ``GPIOError/lineBusy(chip:offset:consumer:)``
///   naming the holder when the kernel tells it.
/// - Requests keep the chip open; the chip closes when it and all its requests are gone.
public final class LibgpiodChip: GPIOChip, @unchecked Sendable {
    public let name: String
    public let label: String
    public let lineCount: Int
    public let path: String
    // The handle is only used under `lock`: libgpiod objects are not thread-safe.
    private let handle: OpaquePointer
    private let lock = ChipLock()

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
        name = String(cString: ttg_chip_name(handle))
        label = String(cString: ttg_chip_label(handle))
        lineCount = Int(ttg_chip_num_lines(handle))
    }

    deinit { ttg_chip_close(handle) }

    /// Which libgpiod this was built against, such as "libgpiod 2.1.3 (v2 API)".
    public static var libraryDescription: String {
        "libgpiod \(String(cString: ttg_library_version())) (v\(ttg_library_generation()) API)"
    }

    /// Every GPIO chip in `/dev`, in name order. Chips that cannot be opened are left out.
    public static func availableChips(devices: String = "/dev") -> [ChipDescription] {
        return (TextFile.names(in: devices) ?? []).filter { $0.hasPrefix("gpiochip") }
            .sorted { (Int($0.dropFirst(8)) ?? .max, $0) < (Int($1.dropFirst(8)) ?? .max, $1) }
            .compactMap { entry in
                let path = devices + "/" + entry
                guard let handle = ttg_chip_open(path) else { return nil }
                defer { ttg_chip_close(handle) }
                return ChipDescription(
                    path: path, name: String(cString: ttg_chip_name(handle)),
                    label: String(cString: ttg_chip_label(handle)), lineCount: Int(ttg_chip_num_lines(handle)))
            }
    }

    /// Opens the chip named by `spec`: a path, a name or a label.
    public static func open(_ spec: String, devices: String = "/dev") throws(GPIOError) -> LibgpiodChip {
        let path: String
        if spec.hasPrefix("/") {
            path = spec
        } else if spec.hasPrefix("gpiochip"), access(devices + "/" + spec, F_OK) == 0 {
            path = devices + "/" + spec
        } else if let match = availableChips(devices: devices).first(where: { $0.matches(spec) }) {
            path = match.path
        } else {
            throw .chipNotFound(spec: spec, available: availableChips(devices: devices))
        }
        guard let handle = ttg_chip_open(path) else {
            let code = errno
            switch code {
            case EACCES, EPERM: throw .permissionDenied(path: path)
            // A path that exists and still fails as not-a-chip (libgpiod v1 and v2 say so with
            // different error numbers) is a wrong path, whatever the library's wording.
            case ENOENT where access(path, F_OK) != 0: throw .chipNotFound(spec: spec, available: availableChips(devices: devices))
            case ENOENT, ENODEV, ENOTTY, EINVAL: throw .notAGPIOChip(path: path)
            default: throw .system(chip: path, operation: "opening the chip", errno: code, message: String(cString: strerror(code)))
            }
        }
        return LibgpiodChip(handle: handle, path: path)
    }

    public func requestInputs(_ configuration: InputConfiguration) throws(GPIOError) -> any InputLines {
        try check(configuration.offsets)
        let bias: Int32 = switch configuration.bias {
        case .asIs: Int32(TTG_BIAS_AS_IS)
        case .pullUp: Int32(TTG_BIAS_PULL_UP)
        case .pullDown: Int32(TTG_BIAS_PULL_DOWN)
        case .disabled: Int32(TTG_BIAS_DISABLED)
        }
        let debounce = UInt((configuration.kernelDebounce?.nanoseconds ?? 0) / 1000)
        let raw = configuration.offsets.map(\.rawValue)
        let request = try withHandle(operation: "requesting input lines", offsets: configuration.offsets) { handle in
            ttg_request_inputs(handle, raw, raw.count, bias, debounce, configuration.consumer)
        }
        return try LibgpiodInputLines(chip: self, request: request, offsets: configuration.offsets)
    }

    public func requestOutputs(_ configuration: OutputConfiguration) throws(GPIOError) -> any OutputLines {
        try check(configuration.offsets)
        let raw = configuration.offsets.map(\.rawValue)
        let values = [Int32](repeating: configuration.initialLevel.isHigh ? 1 : 0, count: raw.count)
        let request = try withHandle(operation: "requesting output lines", offsets: configuration.offsets) { handle in
            ttg_request_outputs(handle, raw, raw.count, values, configuration.consumer)
        }
        return LibgpiodOutputLines(chip: self, request: request, offsets: configuration.offsets)
    }

    private func check(_ offsets: [LineOffset]) throws(GPIOError) {
        var seen = Set<LineOffset>()
        for offset in offsets {
            guard Int(offset.rawValue) < lineCount else {
                throw .offsetOutOfRange(chip: name, offset: offset, lineCount: lineCount)
            }
            guard seen.insert(offset).inserted else { throw .duplicateLine(chip: name, offset: offset) }
        }
    }

    /// Runs a request call; on EBUSY asks the kernel who holds which line.
    private func withHandle(
        operation: String, offsets: [LineOffset], _ body: (OpaquePointer) -> OpaquePointer?
    ) throws(GPIOError) -> OpaquePointer {
        lock.lock()
        defer { lock.unlock() }
        if let request = body(handle) { return request }
        let code = errno
        if code == EBUSY {
            for offset in offsets {
                var buffer = [CChar](repeating: 0, count: 64)
                if ttg_chip_line_consumer(handle, offset.rawValue, &buffer, buffer.count) == 1 {
                    let consumer = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    throw .lineBusy(chip: name, offset: offset, consumer: consumer.isEmpty ? nil : consumer)
                }
            }
            throw .lineBusy(chip: name, offset: offsets[0], consumer: nil)
        }
        if code == EACCES || code == EPERM { throw .permissionDenied(path: path) }
        throw .system(chip: name, operation: operation, errno: code, message: String(cString: strerror(code)))
    }

    /// Serializes calls into libgpiod for the requests.
    func synchronized<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// A plain mutex for the chip handle: libgpiod objects are not thread-safe.
private final class ChipLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
