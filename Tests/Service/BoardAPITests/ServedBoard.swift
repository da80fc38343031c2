@testable import BoardAPI
import Basics
import BoardProtocol
import Foundation
import GPIO
import Lights
import ViewModel
import Reactive
import SimulatedGPIO
import TicTacToe
import WiredBoard

/// A simulated board on a game loop of its own, served on a socket in a temporary directory,
/// with every state the view model took recorded on the loop (with the frame the LEDs were
/// given), to compare with what clients receive.
///
/// The loop is a real thread, as in the service: the server talks to it from its own thread.
/// Nothing here depends on time passing: the timers that would change the view state (the
/// amber flash, sleep, the computer's thinking) are set to hours unless a test asks otherwise,
/// and every wait is for a message or a reply, bounded only to fail instead of hanging.
final class ServedBoard: @unchecked Sendable {
    let loop = ThreadScheduler(named: "test loop")
    let chip: SimulatedChip
    let board: GameBoard
    let control: RemoteControl
    let server: BoardAPIServer
    let history = RecordedGames()
    let path: String
    private let directory: String
    private let recording: any Disposable
    /// Every view state the loop took, in order (repeats skipped), with the frame shown then.
    let shown = Protected<[(view: ViewState, frame: Frame)]>([])

    init(opponent: Opponent = .person, thinking: Duration = .seconds(3600), limits: BoardAPIServer.Limits = .init()) throws {
        directory = NSTemporaryDirectory() + "api-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/board.sock"
        var settings = BoardSettings()
        settings.opponent = opponent
        // The loop is a real thread: no timer may come due while a test looks (a refused cell's
        // flicker, every 50 ms by default, turned it back to X's red on a busy machine).
        settings.game = GameTimings(
            illegalFlash: .seconds(3600), blinkHalfPeriod: .seconds(3600), idleSleep: .seconds(36_000),
            computerThinking: thinking, opponentShown: .seconds(3600), flickerHalfPeriod: .seconds(3600))
        chip = SimulatedChip(clock: loop)
        let (loop, chip) = (loop, chip)
        board = try GameBoard(chip: chip, settings: settings, scheduler: loop, random: SeededRandom(seed: 7))
        control = RemoteControl(viewModel: board.viewModel, remotePresses: board.remotePresses, loop: loop)
        server = BoardAPIServer(
            listener: try UnixSocket.listen(at: path), control: control, loop: loop, program: "tictactoe test",
            facts: .init(since: WallTime(seconds: 0), scanRate: 100, chip: .init(name: chip.name, label: chip.label)),
            history: history, limits: limits)
        let (board, shown, history) = (board, shown, history)
        let players = board.viewModel.players, marks = board.viewModel.marks
        let taking = SerialDisposable()
        loop.runAndWait {
            taking.inner = CompositeDisposable([
                board.viewModel.state.producer.startWithValues { state in
                    let view = ViewState(state, players: players, marks: marks)
                    let frame = board.viewModel.frame.value
                    shown.withValue { if $0.last?.view != view { $0.append((view, frame)) } }
                },
                GameRecorder.record(board.viewModel) { history.add($0) },
            ])
        }
        recording = taking
        board.start()
        server.start()
    }

    func connect() throws -> BoardConnection { try BoardConnection(path: path) }

    /// A client that has read its hello and the first state.
    func greetedClient() throws -> BoardConnection {
        let client = try connect()
        _ = try client.greeting()
        return client
    }

    var views: [ViewState] { shown.value.map(\.view) }

    /// The state now, read on the loop.
    var state: SessionState {
        let result = Protected<SessionState?>(nil)
        let board = board
        loop.runAndWait { result.withValue { $0 = board.viewModel.state.value } }
        return result.value ?? board.viewModel.state.value
    }

    func stop() {
        server.stop()
        let (board, recording) = (board, recording)
        loop.runAndWait {
            recording.dispose()
            board.shutdown()
        }
        loop.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension BoardConnection {
    /// The messages up to and including the first state (the hello, then the state).
    func greeting() throws -> [APIMessage] {
        var messages: [APIMessage] = []
        while let message = try next(timeout: .seconds(20)) {
            messages.append(message)
            if message.type == .state { return messages }
        }
        return messages
    }

    /// The next state message's view state, skipping other messages.
    func nextState() throws -> ViewState? {
        while let message = try next(timeout: .seconds(20)) {
            if message.type == .state { return message.state }
        }
        return nil
    }
}

/// A game of random legal presses, replayable: the next cell to press for a state.
struct RandomPlayer {
    var random: SeededRandom

    mutating func cell(for board: Board) -> Position {
        let free = Position.all.filter { board[$0] == nil }
        return free[Int(random.next() % UInt64(free.count))]
    }
}

/// The finished games in memory, the latest ``HistoryQuery/largestLimit`` kept, answered
/// unfiltered: the board's memory stands behind `history` in the service (BoardMemoryTests
/// test its filters).
final class RecordedGames: GameArchive {
    private let kept = Protected<[PlayedGame]>([])

    func add(_ game: PlayedGame) {
        added.withValue { $0 += 1 }
        kept.withValue { games in
            games.append(game)
            if games.count > HistoryQuery.largestLimit { games.removeFirst() }
        }
    }

    var games: [PlayedGame] { kept.value }

    private let added = Protected(0)

    func revision() -> Int { added.value }

    func games(_ query: HistoryQuery) -> [PlayedGame] { Array(kept.value.suffix(query.limit)) }
}
