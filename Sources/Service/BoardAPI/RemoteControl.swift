import Basics
import BoardProtocol
import ViewModel
import Reactive
import TicTacToe

/// The board's side of its API, on the game loop: each command enters the view model the way
/// its button does, and the reply says what came of it.
///
/// ## Contract
/// - ``perform(_:reply:)`` may be called from any thread; the command runs on the game loop,
///   in the order commands were performed, and `reply` is called there once, right after the
///   command's one change of state (or none, when refused).
/// - A press is one more cell press of the view model (``GameViewModel``'s remote positions):
///   refused, with amber on the board, where a button's press would be.
/// - ``observeStates(_:)`` hands over the session state now and then every change, on the game
///   loop; what the receiver does there is all the loop pays for its clients, however many.
/// - The counts of moves and finished games are kept from ``start()`` and may be read from
///   any thread.
public final class RemoteControl: Sendable {
    public let players: PlayerNames
    /// How the board shows marks, as its state messages say.
    public let marks: MarkStyle
    private let viewModel: GameViewModel
    private let remotePresses: Signal<Position>.Input
    private let loop: any Scheduler
    private let counts = Protected(Counts())
    private let counting = SerialDisposable()

    public struct Counts: Sendable, Hashable {
        public var moves = 0
        public var gamesPlayed = 0
    }

    /// - Parameter remotePresses: where the view model takes remote cell presses
    ///   (``GameViewModel/init(positions:remotePositions:restoring:timings:scheduler:players:random:)``).
    public init(viewModel: GameViewModel, remotePresses: Signal<Position>.Input, loop: any Scheduler) {
        self.viewModel = viewModel
        self.remotePresses = remotePresses
        self.loop = loop
        players = viewModel.players
        marks = viewModel.marks
    }

    /// Starts counting moves and games; call on the game loop.
    public func start() {
        let counts = counts
        counting.inner = viewModel.events.observeValues { event in
            switch event {
            case .moved: counts.withValue { $0.moves += 1 }
            case .finished(.won), .finished(.draw): counts.withValue { $0.gamesPlayed += 1 }
            default: break
            }
        }
    }

    /// Stops counting; call on the game loop.
    public func stop() { counting.dispose() }

    /// Moves made and games finished since ``start()``.
    public var playCounts: Counts { counts.value }

    /// The state now and every change, to `receive`, on the game loop. Call on the game loop.
    public func observeStates(_ receive: @escaping @Sendable (SessionState) -> Void) -> any Disposable {
        viewModel.state.producer.startWithValues(receive)
    }

    /// Runs `request` on the game loop, then `reply` with what came of it. ``APIRequest/status``
    /// and ``APIRequest/history`` change nothing and are answered without the loop (by the
    /// server); here they are refused.
    public func perform(_ request: APIRequest, reply: @escaping @Sendable (APIMessage) -> Void) {
        loop.schedule { [self] in
            reply(run(request))
        }
    }

    private func run(_ request: APIRequest) -> APIMessage {
        let command = request.command
        let event: GameEvent?
        switch request {
        case .press(let cell):
            guard let position = Position(keypadKey: cell) else { return .error(command, .badArgument, "there is no cell \(cell): press \(APIRequest.cells.lowerBound) to \(APIRequest.cells.upperBound).") }
            event = firstEvent { remotePresses.send(position) }
        case .newGame: event = firstEvent { viewModel.newGame.apply() }
        case .abandon: event = firstEvent { viewModel.startOver.apply() }
        case .opponent(let name):
            guard let opponent = Opponent(name: name) else { return .error(Self.unknownOpponent(name)) }
            event = firstEvent { viewModel.chooseOpponent.apply(opponent) }
        case .resetLearner(let games, let resets): return resetLearner(ifGames: games, resets: resets)
        case .teach(let games, let level): return teach(games: games, level: level)
        case .stopTeaching: return stopTeaching()
        case .heard(let report): return heard(report)
        case .seen(let report):
            event = firstEvent { viewModel.see(report.boards.map { SeenBoard(name: $0.board, invites: $0.invites) }) }
            return .ok(command, event.map { $0.text(players: viewModel.names) } ?? "\(report.boards.count) other \(report.boards.count == 1 ? "board" : "boards") seen.")
        case .status, .history: return .error(command, .notTaken, "answered by the server, not the game loop")
        }
        return reply(to: event, of: command)
    }

    /// The answer to `command`, from the first event it caused (`nil`: none).
    private func reply(to event: GameEvent?, of command: String) -> APIMessage {
        let names = viewModel.names
        switch event {
        case .moved(let player, let position)?:
            return .ok(command, GameEvent.moved(player, position).text(players: names))
        case .refused(let position, .cellOccupied(_, let owner))?:
            return .error(command, .cellTaken, "\(position.name) is taken by \(owner): press a free cell.")
        case .refused(_, .gameOver)?, .ignored?:
            return .error(command, .gameOver, "the game is over: send new-game to start the next one.")
        case .othersTurn?:
            if let other = names.board {
                return .error(command, .otherBoardsTurn, "it is the board \(other.name)'s turn (\(other.side)): wait for its move.")
            }
            return .error(command, .computersTurn, "it is the computer's turn: wait for its move.")
        case .pressWhileWaiting?, .waitingForBoard?:
            return .error(command, .waitingForBoard, "the game waits for \(names.otherBoardLabel), which is not heard playing it: wait, or give the game up by choosing another opponent.")
        case .wokeUp?:
            return .error(command, .wokeUp, "the lights were asleep: this only woke them (as a button does); send it again.")
        case .newGameNeedsHold?:
            return .error(command, .gameNotOver, "the game is not over: send abandon (new-game --abandon) to give it up and start a new one.")
        case .started(let starter)?:
            return .ok(command, "New game: \(names.label(for: starter)) starts.")
        case .opponentChosen(let opponent, let starter)?:
            return .ok(command, "\(opponent.description.prefix(1).uppercased() + opponent.description.dropFirst()) from now on. New game: \(names.label(for: starter)) starts.")
        case .finished?, .fellAsleep?, .otherBoardAway?, .otherBoardHere?, .gaveUp?, .invited?, nil:
            return .error(command, .notTaken, "the board did not take it.")
        }
    }

    /// What the link heard of another board, followed when this board plays it: the reply says
    /// what came of it.
    private func heard(_ report: HeardReport) -> APIMessage {
        let command = APIRequest.Command.heard.rawValue
        let game = report.game.flatMap { game -> PeerGame? in
            guard let side = Player(rawValue: game.mark) else { return nil }
            return PeerGame(
                side: side, number: game.number, moves: game.moves.compactMap(Position.init(keypadKey:)),
                previous: game.previous.map { $0.compactMap(Position.init(keypadKey:)) })
        }
        guard viewModel.state.value.opponent.remote?.name == report.board else {
            return .ok(command, "This board does not play the board \(report.board).")
        }
        let event = firstEvent { viewModel.hear(PeerReport(board: report.board, online: report.online, game: game)) }
        return .ok(command, event.map { $0.text(players: viewModel.names) } ?? "Nothing new.")
    }

    /// A lesson begun, or why not: the reply to `teach`.
    private func teach(games: Int, level number: Int) -> APIMessage {
        let command = APIRequest.Command.teach.rawValue
        guard let level = ComputerLevel(rawValue: number) else { return .error(command, .badArgument, "there is no level \(number): the computer's levels are 1 to 4.") }
        switch viewModel.teach(games: games, against: level) {
        case .started:
            return .ok(command, "Teaching the learner \(games) \(games == 1 ? "game" : "games") against the computer at \(level): its progress is in the state's lesson.")
        case .learnerPlaying:
            return .error(command, .learnerPlaying, "a game against the learner is under way: finish it, or give it up (new-game --abandon), then teach it before its next move.")
        case .underWay:
            return .error(command, .learnerTeaching, "the learner is in a lesson already: wait for its end, or stop it (stop-teaching).")
        case .badCount:
            return .error(command, .badArgument, "a lesson is 1 to \(Lesson.mostGames) games.")
        }
    }

    /// The reply to `stop-teaching`: what the lesson taught, or that there was none.
    private func stopTeaching() -> APIMessage {
        let command = APIRequest.Command.stopTeaching.rawValue
        guard viewModel.stopLesson(), let lesson = viewModel.state.value.lesson else { return .ok(command, "No lesson was under way.") }
        return .ok(command, "Stopped after \(lesson.played) of \(lesson.games) games; what the learner learnt in them is kept.")
    }

    /// A fresh learner, or why not: the reply to `reset-learner`.
    private func resetLearner(ifGames expected: Int?, resets expectedResets: Int?) -> APIMessage {
        let command = APIRequest.Command.resetLearner.rawValue
        switch viewModel.resetLearner(ifGames: expected, resets: expectedResets) {
        case .done:
            return .ok(command, "The learner is a fresh one: no box opened, no game played.")
        case .playing:
            return .error(command, .learnerPlaying, "a game against the learner is under way: finish it, or give it up (new-game --abandon), then reset before the learner's next move (it starts every other game).")
        case .changed(let games, _) where expected.map({ $0 != games }) ?? false:
            return .error(command, .learnerChanged, "the learner has played \(games) \(games == 1 ? "game" : "games"), not the \(expected ?? games) the reset was asked for: ask again.")
        case .changed(_, let resets):
            return .error(command, .learnerChanged, "the learner is not the one the reset was asked about: \(resets) \(resets == 1 ? "reset came" : "resets came") before it, not \(expectedResets ?? resets); ask again.")
        }
    }

    /// The reply to an opponent's name the board does not know.
    static func unknownOpponent(_ name: String) -> RequestError {
        APIRequest.opponentRule(name, knowing: Opponent.nameForms)
    }

    /// The first event `input` makes the view model send: inputs are synchronous on the loop,
    /// so it is the one this input caused.
    private func firstEvent(_ input: () -> Void) -> GameEvent? {
        // Sent synchronously on the loop, where this runs.
        let first = Confined<GameEvent?>(nil)
        let watching = viewModel.events.observeValues { event in
            if first.value == nil { first.value = event }
        }
        input()
        watching.dispose()
        return first.value
    }
}
