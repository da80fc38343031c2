import Basics
import Dispatch
import Reactive

/// Starts the board and tells systemd when it is ready and when it is stopping.
///
/// It starts the board's scan and button reading itself, after the parts before it (autosave,
/// the event log) are observing, so that no press can come before them.
///
/// ## Contract
/// - ``start()`` returns once the first frame has been written to the chip in full
///   (``LEDBoard/framesWritten``; not a guess of time), or the LED lines have failed for good
///   (the group then stops at once); then `READY=1` is sent with the chip's name.
/// - ``stop()`` sends `STOPPING=1`. The watchdog comes after this part in the group, so its
///   pings have stopped by then; the board comes before it, so its lights are still on.
public struct Readiness: ServicePart {
    public let name = "readiness"
    let board: PlayingBoard
    let notifier: Notifier
    let logger: ServiceLog

    public init(board: PlayingBoard, notifier: Notifier, logger: ServiceLog) {
        self.board = board
        self.notifier = notifier
        self.logger = logger
    }

    public func start() {
        let (board, chip) = (board.board, board.chip)
        // Subscribed before the scan starts, so the first frame written cannot be missed.
        let firstFrame = FirstEvent(of: Signal.merge(board.lights.framesWritten, board.failures.map(value: ())))
        board.start()
        firstFrame.wait()
        notifier.ready(status: "playing on \(chip.name) [\(chip.label)]")
        logger.info("ready on \(chip.name) [\(chip.label)]; \(board.viewModel.names.matchTitle)")
    }

    public func stop() {
        notifier.stopping()
        logger.info("stopping")
    }
}

/// The first event of a signal, waited for: subscribes at once, so an event sent before the
/// wait begins is not lost.
private final class FirstEvent: Sendable {
    private let arrived = DispatchSemaphore(value: 0)
    private let observation = SerialDisposable()

    private let seen = Protected(false)

    init(of signal: Signal<Void>) {
        let (arrived, seen) = (arrived, seen)
        // Any event: one that ends the signal without a value must not leave the start waiting.
        observation.inner = signal.observe(Observer<Void> { (_: Event<Void>) in
            let first = seen.withValue { seen in
                defer { seen = true }
                return !seen
            }
            if first { arrived.signal() }
        })
    }

    /// Blocks until the first event, then stops observing.
    func wait() {
        arrived.wait()
        observation.dispose()
    }
}
