import Basics
#if canImport(Glibc)
import Glibc
#endif
import GPIO
import GPIODShim
import Reactive

/// Input lines on a real chip. A reader thread (``PollLoop``) sleeps in `poll()` on the
/// request's descriptors; ``release()`` stops the loop, which returns once the thread has left,
/// then frees the lines. So stopping is prompt and nothing spins.
final class LibgpiodInputLines: InputLines, @unchecked Sendable {
    let offsets: [LineOffset]
    let events: Signal<EdgeEvent>
    private let input: Signal<EdgeEvent>.Input
    private let chip: LibgpiodChip
    private let request: OpaquePointer
    private let loop = PollLoop(named: "gpio-events")
    private let released = Protected(false)
    private let readerRunning = Protected(true)

    init(chip: LibgpiodChip, request: OpaquePointer, offsets: [LineOffset]) throws(GPIOError) {
        self.chip = chip
        self.request = request
        self.offsets = offsets
        (events, input) = Signal<EdgeEvent>.pipe()
        let fds = (0..<ttg_request_fd_count(request)).map { ttg_request_fd(request, $0) }
        let handle = RequestHandle(request)
        // The reader blocks in poll() for the life of the request.
        loop.start { [input, readerRunning] loop in
            Self.read(request: handle.pointer, fds: fds, on: loop, into: input)
            readerRunning.withValue { $0 = false }
        }
    }

    deinit { release() }

    func level(of offset: LineOffset) throws(GPIOError) -> LineLevel {
        guard !released.value else { throw .released(chip: chip.name) }
        guard offsets.contains(offset) else { throw .notRequested(chip: chip.name, offset: offset) }
        let value = chip.synchronized { ttg_request_get_value(request, offset.rawValue) }
        guard value >= 0 else {
            let code = errno
            throw .system(chip: chip.name, operation: "reading line \(offset.rawValue)", errno: code, message: String(cString: strerror(code)))
        }
        return LineLevel(value == 1)
    }

    var isListening: Bool { readerRunning.value && !released.value }

    func release() {
        let first = released.withValue { released -> Bool in
            defer { released = true }
            return !released
        }
        guard first else { return }
        loop.stop()
        chip.synchronized { ttg_request_release(request) }
        input.sendCompleted()
    }

    // The reader thread's loop. Only reads event descriptors (libgpiod's read calls touch no
    // shared state), so it does not take the chip's lock.
    private static func read(request: OpaquePointer, fds: [Int32], on loop: PollLoop, into input: Signal<EdgeEvent>.Input) {
        let asked = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [ttg_event](repeating: ttg_event(), count: 64)
        while let polled = loop.wait(for: asked, timeout: -1) {
            var batch: [EdgeEvent] = []
            for index in 0..<fds.count where polled[index].revents & Int16(POLLIN) != 0 {
                let count = ttg_request_read_events(request, index, &buffer, buffer.count)
                guard count > 0 else { continue }
                for event in buffer.prefix(Int(count)) {
                    batch.append(EdgeEvent(
                        offset: LineOffset(event.offset), edge: event.rising != 0 ? .rising : .falling,
                        timestamp: MonotonicInstant(nanoseconds: Int64(event.timestamp_ns))))
                }
            }
            for event in batch.sorted(by: { $0.timestamp < $1.timestamp }) { input.send(event) }
        }
    }
}

/// Hands the request pointer to the reader thread, which only reads events through it.
private struct RequestHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
