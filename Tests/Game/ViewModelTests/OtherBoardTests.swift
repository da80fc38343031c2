import Basics
import Lights
import Reactive
import TestSupport
import TicTacToe
import Testing
@testable import ViewModel

/// The view model against another board: what the network says of it enters through `hear`,
/// and only its own next moves in the game both boards are at change the game.
@Suite("Playing another board")
struct OtherBoardTests {
    let scheduler = TestScheduler()
    let input: Signal<Position>.Input
    let viewModel: GameViewModel
    let events = Recorded<GameEvent>()
    let timings = GameTimings(idleSleep: .seconds(60), opponentShown: .milliseconds(1500), otherBoardWait: .seconds(120))
    static let kitchen = RemoteBoard(name: "kitchen", side: .o)
    static let attic = RemoteBoard(name: "attic", side: .x)

    init() {
        let presses: Signal<Position>
        (presses, input) = Signal<Position>.pipe()
        viewModel = GameViewModel(positions: presses, timings: timings, scheduler: scheduler, firstStarter: .x)
        events.record(viewModel.events)
    }

    var state: SessionState { viewModel.state.value }

    func invite(_ remote: RemoteBoard?) throws {
        let remote = try #require(remote)
        viewModel.chooseOpponent.apply(.board(remote))
        scheduler.advance(by: timings.opponentShown)
    }

    func hear(_ moves: [Position], board: String = "kitchen", online: Bool = true, side: Player = .o, game: Int = 1) {
        viewModel.hear(PeerReport(board: board, online: online, game: PeerGame(side: side, number: game, moves: moves)))
    }

    @Test("names: another board playing O is \"board:NAME\", playing X \"board:NAME:x\"; a bad name is no opponent")
    func names() throws {
        let kitchen = try #require(Self.kitchen), attic = try #require(Self.attic)
        #expect(Opponent.board(kitchen).name == "board:kitchen")
        #expect(Opponent.board(attic).name == "board:attic:x")
        #expect(Opponent(name: "board:kitchen") == .board(kitchen))
        #expect(Opponent(name: "board:attic:x") == .board(attic))
        for bad in ["board:", "board:Kitchen", "board:a/b", "board::x", "board:-a", "board:\u{1B}[31m", "board:kitchen:o"] {
            #expect(Opponent(name: bad) == nil, "\(bad)")
        }
        viewModel.chooseOpponent.apply(.board(kitchen))
        scheduler.advance(by: timings.opponentShown)
        viewModel.nextOpponent.apply()
        #expect(state.opponent == .person, "the gesture from another board not seen starts its cycle again")
    }

    @Test("invited, the game waits: O's status LED blinks over the board, a press flickers and changes nothing; heard, X plays and the other board's moves come in")
    func invitedThenHeard() throws {
        try invite(Self.kitchen)
        #expect(state.awaitsOtherBoard && state.remote.game == 1)
        #expect(Headline(state) == .waitingForBoard(.o))
        input.send(p(1, 1))
        #expect(events.values.last == .pressWhileWaiting(p(1, 1)) && state.board.moveCount == 0 && state.flashing == p(1, 1))
        scheduler.advance(by: timings.illegalFlash)
        hear([])
        #expect(!state.awaitsOtherBoard && Headline(state) == .toMove(.x) && events.values.last == .otherBoardHere("kitchen"))
        input.send(p(1, 1))
        #expect(state.board[p(1, 1)] == .x)
        input.send(p(0, 0))
        #expect(events.values.last == .othersTurn(p(0, 0)) && state.board.moveCount == 1, "a press in the other board's turn is refused")
        hear([p(1, 1), p(0, 0)])
        #expect(state.board[p(0, 0)] == .o && events.values.last == .moved(.o, p(0, 0)))
    }

    @Test("a repeated or late report, another board's, or one of an earlier game changes nothing; one of the wrong mark or no game makes the board wait")
    func onlyItsNextMoves() throws {
        try invite(Self.kitchen)
        hear([])
        input.send(p(1, 1))
        hear([p(1, 1), p(0, 0)])
        let after = state.board
        let count = events.values.count
        hear([p(1, 1), p(0, 0)])  // repeated
        hear([p(1, 1)])  // late
        hear([])  // later still
        hear([p(1, 1), p(0, 0), p(2, 2)], board: "attic")  // another board
        #expect(state.board == after && !state.awaitsOtherBoard && events.values.count == count)
        hear([p(1, 1), p(0, 0), p(2, 2)], side: .x)  // it plays the other mark
        hear([p(1, 1), p(0, 0), p(2, 2)], game: 0)  // no game of the pairing
        hear([p(1, 1), p(0, 0), p(2, 2)], game: 1_000_000_001)  // past the last game a pairing numbers
        #expect(state.board == after && state.awaitsOtherBoard)
        #expect(events.values.count == count + 1 && events.values.last == .otherBoardAway("kitchen"), "away, once: \(events.values.suffix(3))")
        hear([p(1, 1), p(0, 0)])
        #expect(events.values.last == .otherBoardHere("kitchen") && state.board == after)
    }

    @Test("games that part (a move of this board's mark it lacks, or other moves at one game's number): the pairing's next game, which the other follows")
    func parted() throws {
        try invite(Self.kitchen)
        hear([])
        input.send(p(1, 1))
        hear([p(1, 1), p(0, 0)])
        // The other board holds X's move at (0, 1), which this board lost (a power cut).
        hear([p(1, 1), p(0, 0), p(0, 1), p(2, 2)])
        #expect(state.remote.game == 2 && state.board.moveCount == 0 && state.board.starter == .o && events.values.last == .started(starter: .o))
        // At game 2 the other board holds moves this board never had (it invited again).
        hear([p(2, 2)], game: 2)
        #expect(state.board[p(2, 2)] == .o)
        hear([p(0, 0)], game: 2)
        #expect(state.remote.game == 3 && state.board.moveCount == 0, "the other board's game 2 parted from this one's")
        // The other board follows: its game 3 is this board's.
        hear([], game: 3)
        #expect(state.remote.game == 3 && !state.awaitsOtherBoard)
    }

    @Test("waiting for the other board, a new game is refused: the game is kept until it is back, or another opponent is chosen")
    func keptWhileAway() throws {
        try invite(Self.kitchen)
        hear([])
        input.send(p(1, 1))
        hear([], online: false)
        viewModel.startOver.apply()
        #expect(events.values.last == .waitingForBoard && state.remote.game == 1 && state.board.moveCount == 1)
        viewModel.chooseOpponent.apply(.person)
        #expect(state.opponent == .person && state.board.moveCount == 0 && !state.awaitsOtherBoard)
    }

    @Test("away mid-game: waiting, the marks steady; back: the game goes on where it was, with any move made meanwhile")
    func awayAndBack() throws {
        try invite(Self.kitchen)
        hear([])
        input.send(p(1, 1))
        hear([], online: false)
        #expect(state.awaitsOtherBoard && events.values.last == .otherBoardAway("kitchen"))
        #expect(viewModel.frame.value.description == ". . .\n. R .\n. . .\nX:off O:dim", "O's status LED blinks (lit phase)")
        scheduler.advance(by: GameTimings().blinkHalfPeriod)
        #expect(viewModel.frame.value.description == ". . .\n. R .\n. . .\nX:off O:off", "O's status LED blinks (dark phase)")
        input.send(p(0, 0))
        #expect(state.board.moveCount == 1)
        hear([p(1, 1), p(2, 2)])
        #expect(!state.awaitsOtherBoard && state.board[p(2, 2)] == .o && Headline(state) == .toMove(.x))
    }

    @Test("a win is scored for the pairing with that board; the next game, started on either board, is the same game on both")
    func scoresAndNextGame() throws {
        let kitchen = try #require(Self.kitchen)
        try invite(Self.kitchen)
        hear([])
        var moves: [Position] = []
        for (x, o) in [(p(0, 0), p(1, 0)), (p(0, 1), p(1, 1))] {
            input.send(x)
            moves += [x, o]
            hear(moves)
        }
        input.send(p(0, 2))
        #expect(state.board.winner == .x && state.score == Score(xWins: 1))
        #expect(state.score(against: .board(kitchen)) == Score(xWins: 1) && state.score(against: .person) == Score())
        #expect(events.values.suffix(2) == [.moved(.x, p(0, 2)), .finished(state.board.outcome)])
        // The other board starts game 2, which O starts, and makes its first move.
        hear([p(2, 2)], game: 2)
        #expect(state.remote.game == 2 && state.board.starter == .o && state.board[p(2, 2)] == .o && state.board.moveCount == 1)
        // This board starts game 3 (X's) after a hold; the other follows.
        viewModel.startOver.apply()
        #expect(state.remote.game == 3 && state.board.starter == .x && state.board.moveCount == 0)
        hear([p(2, 2), p(0, 0)], game: 2)
        #expect(state.remote.game == 3 && state.board.moveCount == 0, "the other board's earlier game changes nothing")
    }

    @Test("joining a board that invites this one: X is that board's; its game, heard, is the game here, with the moves it holds")
    func joins() throws {
        try invite(Self.attic)
        #expect(state.awaitsOtherBoard && state.remote.game == 0 && Headline(state) == .waitingForBoard(.x))
        viewModel.startOver.apply()
        #expect(events.values.last == .waitingForBoard && state.remote.game == 0, "no game of the pairing to start yet")
        hear([p(1, 1)], board: "attic", side: .x, game: 5)
        #expect(state.remote.game == 5 && state.board.starter == .x && state.board[p(1, 1)] == .x && Headline(state) == .toMove(.o))
        input.send(p(0, 0))
        #expect(state.board[p(0, 0)] == .o)
    }

    @Test("a snapshot keeps the pairing's game; restored, the board waits for the other one until it is heard")
    func restored() throws {
        let kitchen = try #require(Self.kitchen)
        try invite(Self.kitchen)
        hear([])
        input.send(p(1, 1))
        let snapshot = state.snapshot
        #expect(snapshot.remoteGame == 1 && snapshot.opponent == .board(kitchen))
        let restored = SessionState(snapshot: snapshot)
        #expect(restored.awaitsOtherBoard && restored.board == state.board && restored.remote.game == 1)
    }

    @Test("a move heard wakes the lights")
    func wakes() throws {
        try invite(Self.kitchen)
        hear([])
        input.send(p(1, 1))
        scheduler.advance(by: timings.idleSleep)
        #expect(state.isAsleep)
        hear([p(1, 1), p(0, 0)])
        #expect(!state.isAsleep && state.board[p(0, 0)] == .o)
    }

    @Test("not heard for the whole wait, the board gives the game up: two players, a new game, the lights left as they were; heard meanwhile, the wait starts again")
    func givesUp() throws {
        let kitchen = try #require(Self.kitchen)
        try invite(Self.kitchen)
        scheduler.advance(by: timings.otherBoardWait - .seconds(2))
        hear([])
        scheduler.advance(by: timings.otherBoardWait * 2)
        input.send(p(1, 1))  // wakes the lights
        input.send(p(1, 1))
        #expect(state.opponent == .board(kitchen) && state.board[p(1, 1)] == .x, "heard: no wait runs, however long")
        hear([p(1, 1)], online: false)
        scheduler.advance(by: timings.otherBoardWait - .seconds(1))
        hear([p(1, 1)])
        hear([p(1, 1)], online: false)
        scheduler.advance(by: timings.otherBoardWait - .seconds(1))
        #expect(state.opponent == .board(kitchen) && state.awaitsOtherBoard, "the wait started again when it went away again")
        scheduler.advance(by: .seconds(1))
        let given = try #require(events.values.last)
        guard case .gaveUp("kitchen", timings.otherBoardWait, let starter) = given else {
            Issue.record("gave up: \(given)")
            return
        }
        #expect(state.opponent == .person && state.board == Board(starter: starter) && !state.awaitsOtherBoard)
        #expect(state.isAsleep && !state.showsOpponent, "nobody pressed for a minute: the lights stay dark")
        #expect(given.text(players: viewModel.names).contains("not heard for 2 min"))
        input.send(p(0, 0))
        #expect(events.values.last == .wokeUp)
        input.send(p(0, 0))
        #expect(state.board[p(0, 0)] == starter, "two players: either mark at the buttons")
        hear([p(1, 1), p(2, 2)])
        #expect(state.board.moveCount == 1, "the other board, heard after, changes nothing")
        scheduler.advance(by: timings.otherBoardWait * 3)
        #expect(state.opponent == .person && events.values.filter { if case .gaveUp = $0 { true } else { false } }.count == 1, "no second giving up")
    }

    @Test("another board chosen while one is waited for, or the same one again: the whole wait from the choice")
    func waitStartsAtEachChoice() throws {
        let attic = try #require(Self.attic)
        try invite(Self.kitchen)
        scheduler.advance(by: timings.otherBoardWait - .seconds(10) - timings.opponentShown)
        input.send(p(1, 1))  // wakes the lights, for the choice to be taken
        viewModel.chooseOpponent.apply(.board(attic))
        scheduler.advance(by: timings.otherBoardWait - .seconds(1))
        #expect(state.opponent == .board(attic), "the attic is waited for from its choice on")
        input.send(p(1, 1))
        try invite(Self.kitchen)
        scheduler.advance(by: timings.otherBoardWait - .seconds(1) - timings.opponentShown)
        #expect(state.opponent.remote?.name == "kitchen", "and the kitchen again, from its new invitation")
        scheduler.advance(by: .seconds(1))
        #expect(state.opponent == .person)
    }

    @Test("a board restored mid-game waits for the other one, and gives it up after the wait too")
    func restoredGivesUp() throws {
        try invite(Self.kitchen)
        hear([])
        input.send(p(1, 1))
        let restored = GameViewModel(positions: .never, restoring: state.snapshot, timings: timings, scheduler: scheduler)
        let restoredEvents = Recorded<GameEvent>()
        restoredEvents.record(restored.events)
        scheduler.advance(by: timings.otherBoardWait - .seconds(1))
        #expect(restored.state.value.awaitsOtherBoard && restored.state.value.board[p(1, 1)] == .x)
        scheduler.advance(by: .seconds(1))
        let given = try #require(restoredEvents.values.last)
        guard case .gaveUp("kitchen", timings.otherBoardWait, _) = given else {
            Issue.record("gave up: \(given)")
            return
        }
        #expect(restored.state.value.opponent == .person)
    }

    @Test("boards seen online: an invitation told once (not when already joined), the lights left as they are; the gesture offers each after the learner, joining the one that invites")
    func seenAndInvited() throws {
        let attic = try #require(Self.attic), kitchen = try #require(Self.kitchen)
        viewModel.see([SeenBoard(name: "kitchen", invites: false)])
        #expect(events.values.isEmpty && state.seenBoards.count == 1, "no invitation, nothing to tell")
        scheduler.advance(by: timings.idleSleep)
        #expect(state.isAsleep)
        viewModel.see([SeenBoard(name: "attic", invites: true), SeenBoard(name: "kitchen", invites: false)])
        #expect(events.values.last == .invited("attic") && state.isAsleep, "told, but nobody need be at the board")
        let count = events.values.count
        viewModel.see([SeenBoard(name: "attic", invites: true), SeenBoard(name: "kitchen", invites: false)])
        #expect(events.values.count == count, "the same list: nothing")
        #expect(state.opponentChoices == Opponent.allCases + [.board(attic), .board(kitchen)])
        input.send(p(1, 1))  // wakes the lights
        for _ in Opponent.allCases { viewModel.nextOpponent.apply() }
        #expect(state.opponent == .board(attic) && state.remote.game == 0, "the gesture past the learner joins the attic's game")
        viewModel.nextOpponent.apply()
        #expect(state.opponent == .board(kitchen) && state.remote.game == 1, "then invites the kitchen")
        viewModel.see([SeenBoard(name: "attic", invites: true)])
        #expect(events.values.filter { $0 == .invited("attic") }.count == 2, "the gesture chose the attic on its way: its invitation is news again")
        viewModel.nextOpponent.apply()
        #expect(state.opponent == .person, "from a board no longer seen, the first choice")
        viewModel.chooseOpponent.apply(.board(attic))
        viewModel.see([])
        viewModel.see([SeenBoard(name: "attic", invites: true)])
        #expect(events.values.filter { $0 == .invited("attic") }.count == 2, "joined already: no invitation told")
        let many = (1...20).map { SeenBoard(name: "board\($0)", invites: false) }
        viewModel.see(many)
        #expect(state.seenBoards == Array(many.prefix(SeenBoard.most)), "at most \(SeenBoard.most)")
    }

    @Test("the other board's last move of a game and its next game heard at once: the game ends here too (its move, its result, scored), then the next; a finished game is published as the one before")
    func missedLastMove() throws {
        let kitchen = try #require(Self.kitchen)
        try invite(Self.kitchen)
        hear([])
        let game = [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(2, 2), p(1, 2)]
        for (index, position) in game.dropLast().enumerated() {
            if index.isMultiple(of: 2) { input.send(position) } else { hear(Array(game.prefix(index + 1))) }
        }
        let count = events.values.count
        viewModel.hear(PeerReport(board: "kitchen", online: true, game: PeerGame(side: .o, number: 2, moves: [p(2, 0)], previous: game)))
        let told = Array(events.values.dropFirst(count))
        let middleRow = WinningLines(WinningLine.all.filter { line in [p(1, 0), p(1, 1), p(1, 2)].allSatisfy(line.contains) })
        #expect(told == [.moved(.o, p(1, 2)), .finished(.won(by: .o, along: middleRow)), .started(starter: .o), .moved(.o, p(2, 0))], "\(told)")
        #expect(state.score(against: .board(kitchen)).oWins == 1 && state.remote.game == 2 && state.board[p(2, 0)] == .o)
        #expect(state.previousRemoteMoves == game, "the game it ended, for the kitchen should it need it")
        let again = events.values.count
        viewModel.hear(PeerReport(board: "kitchen", online: true, game: PeerGame(side: .o, number: 2, moves: [p(2, 0)], previous: game)))
        #expect(events.values.count == again && state.score(against: .board(kitchen)).oWins == 1, "heard again: nothing, scored once")
    }

    @Test("an invitation that comes and goes (a flapping link, a board that does it on purpose) is told once; again only after this board has played it")
    func invitationToldOnce() throws {
        let attic = try #require(Self.attic)
        for _ in 1...5 {
            viewModel.see([SeenBoard(name: "attic", invites: true)])
            viewModel.see([])
            viewModel.see([SeenBoard(name: "attic", invites: false)])
        }
        #expect(events.values.filter { $0 == .invited("attic") }.count == 1)
        viewModel.chooseOpponent.apply(.board(attic))
        viewModel.see([SeenBoard(name: "attic", invites: true)])
        viewModel.chooseOpponent.apply(.person)
        viewModel.see([])
        viewModel.see([SeenBoard(name: "attic", invites: true)])
        #expect(events.values.filter { $0 == .invited("attic") }.count == 2, "played since: its next invitation is told")
        // Chosen without a list between (a game played while no board came or went): told again after.
        viewModel.chooseOpponent.apply(.board(attic))
        viewModel.chooseOpponent.apply(.person)
        viewModel.see([])
        viewModel.see([SeenBoard(name: "attic", invites: true)])
        #expect(events.values.filter { $0 == .invited("attic") }.count == 3)
        // Both boards inviting each other (each waits for the other to join): told once, however
        // the list changes meanwhile.
        viewModel.chooseOpponent.apply(.board(try #require(RemoteBoard(name: "attic", side: .o))))
        for other in ["porch", "cellar", "shed"] {
            viewModel.see([SeenBoard(name: "attic", invites: true), SeenBoard(name: other, invites: false)])
        }
        #expect(events.values.filter { $0 == .invited("attic") }.count == 4)
    }

    @Test("a later game heard with its moves already: its start, then its moves, each told (the history records each game whole)")
    func laterGameWithMoves() throws {
        try invite(Self.kitchen)
        hear([])
        input.send(p(0, 0))
        hear([p(0, 0), p(1, 1)])
        let count = events.values.count
        hear([p(0, 2)], game: 2)
        #expect(Array(events.values.dropFirst(count)) == [.started(starter: .o), .moved(.o, p(0, 2))], "\(events.values.dropFirst(count))")
        #expect(state.remote.game == 2 && state.board[p(0, 2)] == .o && state.board.moveCount == 1)
    }
}
