import BoardAPI
import BoardProtocol
import BoardUnderTest
import Basics
import Reactive
import SimulatedGPIO
import WiredBoard

/// Presses sent on the board's socket, each timed from the send until a second client has read
/// the state it caused: a board on a real game loop (a thread, scanning in real time on the
/// simulated chip), as the service runs it. New games between the replayed games are not timed.
func socketPressLatencies(_ count: Int) -> [Int64] {
    let loop = ThreadScheduler(named: "game loop")
    let board: GameBoard
    do {
        board = try GameBoard(chip: SimulatedChip(clock: loop, historyCapacity: 0), settings: BoardSettings(), scheduler: loop)
    } catch {
        fatalError("latency board: \(error)")
    }
    board.start()
    let served = ServedStack(board: board, loop: loop, watchers: 0)
    let driver = served.connect(), watcher = served.connect()
    func nextState(_ client: BoardConnection) {
        while let message = try? client.next(), message.type != .state {}
    }
    nextState(driver)
    nextState(watcher)
    var replay = GameReplay()
    var times: [Int64] = []
    times.reserveCapacity(count)
    for _ in 0..<count {
        let (cell, newGame) = replay.next()
        if newGame {
            _ = try? driver.ask(.newGame)
            nextState(watcher)
        }
        let start = MonotonicInstant.now()
        try? driver.send(.press(cell))
        nextState(watcher)
        times.append(MonotonicInstant.now().nanoseconds - start.nanoseconds)
        // The driver's own copy of the state, then its reply.
        while let message = try? driver.next(), message.type != .ok, message.type != .error {}
    }
    driver.close()
    watcher.close()
    served.stop()
    loop.runAndWait { board.shutdown() }
    loop.stop()
    return times
}
