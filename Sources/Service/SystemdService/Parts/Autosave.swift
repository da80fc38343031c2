import BoardAPI
import Reactive

/// Hands every new snapshot of the game (board, next starter, opponent, scores, learner) and
/// every finished game to ``Saving``, and the last snapshot when the service stops.
///
/// ## Contract
/// - From ``start()`` on, each change of the view model's snapshot is submitted: at most once
///   per input, and the game loop never waits for the disk. It is submitted a loop turn later,
///   once the input's events have been sent: a game the input ended has then been recorded, and
///   is committed with the snapshot that counts it (``Saver``).
/// - ``stop()``, on the game loop: no submission follows, then the current snapshot is
///   submitted, so the state written last is the state shown last.
public final class Autosave: ServicePart {
    public let name = "autosave"
    private let board: PlayingBoard
    private let saving: Saving
    private let loop: any Scheduler
    private let observation = CompositeDisposable()

    public init(board: PlayingBoard, saving: Saving, loop: any Scheduler) {
        self.board = board
        self.saving = saving
        self.loop = loop
    }

    public func start() {
        let (saver, loop, viewModel, observation) = (saving.saver, loop, board.board.viewModel, observation)
        loop.runAndWait {
            observation += GameRecorder.record(viewModel) { game in saver.record(game) }
            // Events are sent after the state has changed: a game's record comes after its
            // snapshot, within the same turn of the loop.
            observation += viewModel.snapshot.signal.observeValues { snapshot in
                _ = loop.schedule { saver.submit(snapshot) }
            }
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
