import Basics
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

    public func start() async {
        let (board, chip) = (board.board, board.chip)
        // Subscribed before the scan starts, so the first frame written cannot be missed.
        let firstFrame = FirstEvent(of: Signal.merge(board.lights.framesWritten, board.failures.map(value: ())))
        board.start()
        await firstFrame.value()
        notifier.ready(status: "playing on \(chip.name) [\(chip.label)]")
        logger.info("ready on \(chip.name) [\(chip.label)]; \(board.viewModel.names.matchTitle)")
    }

    public func stop() async {
        notifier.stopping()
        logger.info("stopping")
    }
}

/// The first event of a signal, awaited: subscribes at once, so an event sent before the wait
/// begins is not lost.
private final class FirstEvent: Sendable {
    private struct State {
        var arrived = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Protected(State())
    private let observation = Protected<(any Disposable)?>(nil)

    init(of signal: Signal<Void>) {
        let state = state
        let disposable = signal.observe(Observer<Void> { (_: Event<Void>) in
            let waiter = state.withValue { state -> CheckedContinuation<Void, Never>? in
                guard !state.arrived else { return nil }
                state.arrived = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        })
        observation.withValue { $0 = disposable }
    }

    func value() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let arrived = state.withValue { state -> Bool in
                if !state.arrived { state.waiter = waiter }
                return state.arrived
            }
            if arrived { waiter.resume() }
        }
        observation.value?.dispose()
    }
}
