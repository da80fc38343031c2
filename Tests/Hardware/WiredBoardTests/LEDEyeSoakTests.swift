import BoardSimulation
import Devices
import EyeModels
import Lights
import ViewModel
import Reactive
import TestSupport
import Testing
import TicTacToe
@testable import WiredBoard

/// A seeded soak: a random person plays a thousand games and more on the buttons, with refused
/// presses (on empty cells in the computer's turn, on X's and O's marks), wins along two lines
/// closed by one mark, draws, restarts, the choice of every opponent and sleep, and other boards
/// that move, go and come back; the eyes of
/// ``LEDEyeTests`` read back every stretch between two changes of what the board shows.
///
/// The person looks at whatever the board shows for as long as a person needs to read it
/// before acting (``EyesOnTheBoard/shortestReadable(_:)``, more at random), so every stretch is
/// one a person can look at: none is a glimpse, and each must be read right by every eye.
///
/// Fast on purpose: the flicker is the default one (its pace is the eye's, not the test's) but
/// the rest is shortened in proportion to it (a refused press flickers two periods, the blink
/// is four times slower, the computer thinks for six half periods (the learner's box, shown
/// in the blink, is read in its first lit phase and a dark one), the choice of opponent
/// shows for three); the scan runs at the
/// longest row period the marks allow; and the person acts as soon as the board has been read.
@Suite("A soak of random games read without colour", .soak)
struct LEDEyeSoakTests {
    static var settings: BoardSettings {
        var settings = BoardSettings()
        settings.scanRowPeriod = settings.longestScanRow
        let flicker = GameTimings().flickerHalfPeriod
        settings.game = GameTimings(
            illegalFlash: flicker * 4, blinkHalfPeriod: flicker * 4, idleSleep: .seconds(1), computerThinking: flicker * 6,
            opponentShown: flicker * 3, flickerHalfPeriod: flicker)
        settings.buttons.hold = flicker * 3
        return settings
    }

    /// A game of two players in which the starter's fifth mark closes two lines at once: the
    /// nine cells in the order they are played, none of them completing a line before the last.
    static func doubleWin(using random: inout SeededRandom) -> [Position] {
        while true {
            let order = Position.all.shuffled(using: &random)
            var board = Board(starter: .x)
            for position in order {
                guard board.winner == nil, let next = try? board.playing(position) else { break }
                board = next
            }
            if board.moveCount == 9 && Array(board.winningLines).count == 2 { return order }
        }
    }

    /// What the soak did, beyond what the eyes read.
    struct Played {
        var games = 0, againstComputer = 0, doubleWins = 0, draws = 0, restarts = 0, choices = 0, sleeps = 0
        var refusedInComputersTurn = 0, refusedOnMarks = 0, againstBoards = 0, boardsAway = 0
    }

    /// A person at the board, choosing at random with `random`.
    final class Person {
        let eyes: EyesOnTheBoard
        var random: SeededRandom
        var played = Played()
        let tap = Duration.milliseconds(30)

        init(eyes: EyesOnTheBoard, seed: UInt64) {
            self.eyes = eyes
            random = SeededRandom(seed: seed)
        }

        var state: SessionState { eyes.state }
        var timings: GameTimings { eyes.board.settings.game }

        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

        /// Looks a while (`extra`, and a little at random), and then on until what the board shows
        /// has been shown long enough to read, however often it changes meanwhile (a refused
        /// press's flicker ending, the computer moving).
        func look(extra: Duration = .zero) {
            eyes.scheduler.advance(by: .milliseconds(Int64(random.next() % 40)) + extra)
            while true {
                let need = eyes.shortestReadable(eyes.shown) + .milliseconds(5)
                guard eyes.shownFor < need else { return }
                // At least a millisecond: the clock counts whole nanoseconds, a duration less.
                eyes.scheduler.advance(by: max(need - eyes.shownFor, .milliseconds(1)))
            }
        }

        /// Before a gesture that takes a while (the board changes only at its end): waits for a
        /// refused press's flicker to end, so that its end does not come a moment before.
        func waitForTheFlicker() {
            guard state.flashing != nil else { return }
            eyes.scheduler.advance(by: timings.illegalFlash)
            look()
        }

        func press(_ position: Position) {
            eyes.person.tap(position, for: tap)
            eyes.scheduler.advance(by: .milliseconds(1))
        }

        /// One decision, after looking at the board.
        func act() {
            if state.isAsleep {
                look()
                if chance(50) { eyes.person.pressNewGame(for: tap) } else { press(Position.all[Int(random.next() % 9)]) }
                eyes.scheduler.advance(by: tap)
            } else if state.showsOpponent {
                look()
                // A press now with the learner to start would be refused in its turn (see
                // moveOrRefuse: its box cannot be read in pieces), and one against another board
                // while it is waited for (its status LED's blink, cut by the flicker, neither):
                // the choice is waited out.
                let learnerStarts = state.opponent == .learner && state.board.turn == .o
                if learnerStarts || state.awaitsOtherBoard || chance(50) { eyes.scheduler.advance(by: timings.opponentShown) } else { moveOrRefuse() }
            } else if let other = state.opponent.remote, state.awaitsOtherBoard || (state.board.turn == other.side && !state.board.isOver) {
                look()
                theOtherBoardActs(other)
            } else if state.board.isOver {
                look(extra: .milliseconds(Int64(random.next() % 60)))
                endOfGame()
            } else if state.awaitsComputer {
                eyes.scheduler.advance(by: timings.computerThinking)
            } else {
                look()
                duringGame()
            }
        }

        /// The last game counted: one woken from sleep is the same game.
        private var counted: Board?
        /// The order of a game of two players to be won along two lines, while it is followed.
        private var plan: [Position] = []

        private func endOfGame() {
            if counted != state.board {
                counted = state.board
                played.games += 1
                if state.opponent != .person { played.againstComputer += 1 }
                if state.board.isDraw { played.draws += 1 }
                if Array(state.board.winningLines).count == 2 { played.doubleWins += 1 }
            }
            let leaves: UInt64 = state.opponent == .person ? 5 : state.opponent.remote != nil ? 30 : 95
            switch random.next() % 100 {
            case 0..<3 where state.opponent.remote == nil: playAnotherBoard()
            case 0..<leaves: chooseOpponent()
            case 96..<100: sleep()
            default:
                eyes.person.pressNewGame(for: tap)
                eyes.scheduler.advance(by: tap)
            }
        }

        private func duringGame() {
            switch random.next() % 100 {
            case 0..<2: chooseOpponent()
            case 2..<6:
                waitForTheFlicker()
                played.restarts += 1
                eyes.person.pushNewGame()
                eyes.scheduler.advance(by: eyes.board.settings.buttons.hold + .milliseconds(10))
                eyes.person.releaseNewGame()
                eyes.scheduler.advance(by: .milliseconds(1))
            case 6..<7 where chance(50): sleep()
            default: moveOrRefuse()
            }
        }

        /// The planned cell while a plan is followed (one is taken up at the start of some games
        /// of two players); else a winning move most often, or any free cell.
        private func nextMove(on board: Board, free: [Position]) -> Position {
            if board.moveCount == 0 && state.opponent == .person && chance(15) { plan = LEDEyeSoakTests.doubleWin(using: &random) }
            if plan.count == 9, plan[..<board.moveCount].allSatisfy({ board[$0] != nil }), board[plan[board.moveCount]] == nil {
                return plan[board.moveCount]
            }
            plan = []
            let wins = free.filter { (try? board.playing($0))?.winner != nil }
            let pick = !wins.isEmpty && chance(60) ? wins : free
            return pick[Int(random.next() % UInt64(pick.count))]
        }

        /// Another board chosen (through the board's API: no gesture reaches one), one of the
        /// table's two, each playing its mark.
        private func playAnotherBoard() {
            waitForTheFlicker()
            played.againstBoards += 1
            let boards = Headline.exampleBoards
            eyes.board.viewModel.chooseOpponent.apply(.board(boards[Int(random.next() % UInt64(boards.count))]))
            eyes.scheduler.advance(by: .milliseconds(1))
        }

        /// The other board, in its turn or while it is waited for: one time in ten it goes away
        /// (or stays away); else it is heard, with its move when it is its turn.
        private func theOtherBoardActs(_ other: RemoteBoard) {
            waitForTheFlicker()
            let online = random.next() % 10 > 0
            if !online && !state.awaitsOtherBoard { played.boardsAway += 1 }
            var moves = Array(state.moves ?? MoveList())
            let free = Position.all.filter { state.board[$0] == nil }
            if online, state.remote.isHere, state.board.turn == other.side, !free.isEmpty {
                moves.append(free[Int(random.next() % UInt64(free.count))])
            }
            let game = PeerGame(side: other.side, number: max(state.remote.game, 1), moves: moves)
            eyes.board.viewModel.hear(PeerReport(board: other.name, online: online, game: game))
            eyes.scheduler.advance(by: .milliseconds(1))
        }

        /// The gesture: new game held, a cell tapped, new game let go.
        private func chooseOpponent() {
            waitForTheFlicker()
            played.choices += 1
            eyes.person.pushNewGame()
            eyes.scheduler.advance(by: tap)
            press(Position.all[Int(random.next() % 9)])
            eyes.scheduler.advance(by: tap)
            eyes.person.releaseNewGame()
            eyes.scheduler.advance(by: .milliseconds(1))
        }

        private func sleep() {
            waitForTheFlicker()
            played.sleeps += 1
            eyes.scheduler.advance(by: timings.idleSleep)
        }

        /// A move (a winning one when there is, most often: the double ones first), or a press
        /// on a mark; against the computer, sometimes a press in its turn while it thinks.
        private func moveOrRefuse() {
            let board = state.board
            let free = Position.all.filter { board[$0] == nil }, taken = Position.all.filter { board[$0] != nil }
            if !taken.isEmpty && chance(8) {
                played.refusedOnMarks += 1
                press(taken[Int(random.next() % UInt64(taken.count))])
                if chance(60) { look() }
                return
            }
            press(nextMove(on: board, free: free))
            // Not in the learner's turn: its box blinks, and a blink cut in pieces by a flicker
            // is too short to read in any of them (the computer's levels show it steady).
            guard state.board != board, state.awaitsComputer, !state.showsLearnersBox, chance(30) else { return }
            // In the computer's turn, once it has been seen, late enough for the computer's move
            // to end the flicker (not a moment after it) and soon enough for the flicker to be seen.
            let late = max(timings.computerThinking - timings.illegalFlash, eyes.shortestReadable(eyes.shown))
            eyes.scheduler.advance(by: late - eyes.shownFor + .milliseconds(Int64(random.next() % 10)))
            played.refusedInComputersTurn += 1
            press(Position.all[Int(random.next() % 9)])
        }
    }

    @Test("over 1,000 random games, every stretch between two changes of what the board shows is read right by a normal, a protan and a deutan eye")
    func soak() throws {
        let eyes = try EyesOnTheBoard(settings: Self.settings, eyes: LEDEyeTests.eyes)
        let person = Person(eyes: eyes, seed: 39)
        while person.played.games < 1000 { person.act() }
        person.look()
        eyes.finish()
        let tally = eyes.tally, played = person.played
        print("soak: \(played); \(tally.stretches) stretches read, \(tally.timeRead) of virtual time; glimpses \(tally.glimpses.count)")
        #expect(tally.glimpses.isEmpty, "\(tally.glimpses.count) glimpses: \(tally.glimpses.prefix(5))")
        #expect(Set(CellAppearance.allCases).subtracting(tally.cellsShown).isEmpty)
        #expect(Set(MonochromeEye.boardHeadlines).subtracting(tally.headlinesShown).isEmpty)
        #expect(played.doubleWins >= 20 && played.draws >= 20 && played.sleeps >= 20 && played.choices >= 50, "\(played)")
        #expect(played.againstBoards >= 10 && played.boardsAway >= 5, "\(played)")
        #expect(played.againstComputer >= 300 && played.refusedInComputersTurn >= 100 && played.refusedOnMarks >= 200, "\(played)")
        for (index, eye) in LEDEyeTests.eyes.enumerated() {
            #expect(tally.misread[index] == 0, "\(eye.0): \(tally.misread[index]) of \(tally.stretches) misread: \(tally.firstMisreadings[index])")
        }
    }
}
