import Reactive

/// Hands every new snapshot of the game (board, next starter, opponent, score) to ``Saving``,
/// and the last one when the service stops.
///
/// ## Contract
/// - ``start()`` has the saver stamp snapshots with the last game the restored state named,
///   until the history takes over (``LocalAPI``).
/// - From ``start()`` on, each change of the view model's snapshot is submitted: at most once
///   per input, and the game loop never waits for the disk. It is submitted a loop turn later,
///   once the input's events have been sent: the history has then recorded a game the input
///   ended, and the snapshot is stamped with it (a state is never written ending a game it does
///   not name).
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

    public func start() {
        let (saver, loop) = (saving.saver, loop)
        saver.carry(lastGame: board.lastGame)
        // Events are sent after the state has changed: the game's record comes after its
        // snapshot, within the same turn of the loop.
        observation.inner = board.board.viewModel.snapshot.signal.observeValues { snapshot in
            _ = loop.schedule { saver.submit(snapshot) }
        }
    }

    public func stop() {
        let (board, saver, observation) = (board.board, saving.saver, observation)
        loop.runAndWait {
            observation.dispose()
            saver.submit(board.viewModel.snapshot.value)
        }
    }
}
