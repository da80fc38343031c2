import Reactive

/// Hands every new snapshot of the game (board, next starter, opponent, score) to ``Saving``,
/// and the last one when the service stops.
///
/// ## Contract
/// - From ``start()`` on, each change of the view model's snapshot is submitted: at most once
///   per input, and the game loop never waits for the disk.
/// - ``stop()``, on the game loop: no submission follows, then the current snapshot is
///   submitted, so the state written last is the state shown last.
public final class Autosave: ServicePart {
    public let name = "autosave"
    private let board: PlayingBoard
    private let saving: Saving
    private let loop: any Scheduler
    private let observation = SerialDisposable()

    public init(board: PlayingBoard, saving: Saving, loop: any Scheduler) {
        self.board = board
        self.saving = saving
        self.loop = loop
    }

    public func start() async {
        let saver = saving.saver
        observation.inner = board.board.viewModel.snapshot.signal.observeValues { saver.submit($0) }
    }

    public func stop() async {
        let (board, saver, observation) = (board.board, saving.saver, observation)
        loop.runAndWait {
            observation.dispose()
            saver.submit(board.viewModel.snapshot.value)
        }
    }
}
