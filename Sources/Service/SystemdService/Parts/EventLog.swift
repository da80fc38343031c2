import ViewModel
import Reactive

/// Writes what happens on the board to the log: each game event in words and, at debug level,
/// every edge, press and release. (A failure of the LED lines is logged once, as the failure
/// that stops the service: see ``PlayingBoard``.)
///
/// ## Contract
/// - From ``start()`` to ``stop()`` every event is logged once, on the game loop, as it happens.
/// - ``stop()`` ends the observations on the game loop: nothing is logged after it returns.
public final class EventLog: ServicePart {
    public let name = "event log"
    private let board: PlayingBoard
    private let loop: any Scheduler
    private let logger: ServiceLog
    private let observations = SerialDisposable()

    public init(board: PlayingBoard, loop: any Scheduler, logger: ServiceLog) {
        self.board = board
        self.loop = loop
        self.logger = logger
    }

    public func start() {
        let (board, logger, loop) = (board.board, logger, loop)
        let all = CompositeDisposable()
        all += board.viewModel.events.observeValues { event in
            let text = event.text(players: board.viewModel.names)
            if !text.isEmpty { logger.info("\(text)") }
        }
        if logger.level <= .debug {
            all += board.pad.edges.observeValues { edge in
                logger.debug("edge \(edge.offset) \(edge.edge) stamped \(edge.timestamp), handled at \(loop.now)")
            }
            for (index, button) in board.pad.cells.enumerated() {
                all += button.presses.observeValues { time in logger.debug("cell \(index) pressed at \(time)") }
                all += button.releases.observeValues { time in logger.debug("cell \(index) released at \(time)") }
            }
        }
        observations.inner = all
    }

    public func stop() {
        let observations = observations
        loop.runAndWait { observations.dispose() }
    }
}
