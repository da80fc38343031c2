import BoardSimulation
import Devices
import EyeModels
import Lights
import Matchboxes
import ViewModel
import Reactive
import TestSupport
import Testing
import TicTacToe
@testable import WiredBoard

/// The LEDs read back by people who see no colour (``MonochromeEye``), one per eye, on the real
/// stack: every state of the table (docs/VIEWS.md) driven by button presses, every stretch
/// between two changes of what the view model shows read from the chip's LED lines alone and
/// compared with ``Appearance``. And the same eyes on a board with a cue taken away, to show
/// they would see it go.
@Suite("The LEDs read without colour")
struct LEDEyeTests {
    /// The eyes the marks are for (``Eye``: normal, protan, deutan), seeing the board's LEDs
    /// (the configured part, the documented one by default).
    static let eyes: [(String, DieWeights)] = Eye.allCases.map { ($0.rawValue, DieWeights($0, part: settings.leds)) }

    /// The default timings, except the idle sleep: five minutes of nothing is the same as three
    /// seconds of it.
    static var settings: BoardSettings {
        var settings = BoardSettings()
        settings.game.idleSleep = .seconds(3)
        return settings
    }

    /// Plays every state of the table: two players (refused presses on an X and on an O, X's
    /// win along one line, O's along two closed by one mark, a draw), asleep and woken, the
    /// choice of each opponent, and against the computer refused presses in its turn on an
    /// empty cell (of an empty board, and of one with marks) and on an X.
    static func playEveryState(on eyes: EyesOnTheBoard) {
        let look = Duration.milliseconds(500), end = Duration.milliseconds(1200)
        func tap(_ cells: [Int], look: Duration = look) {
            for cell in cells {
                eyes.person.tap(Position.all[cell])
                eyes.scheduler.advance(by: look)
            }
        }
        func newGame() {
            eyes.person.pressNewGame()
            eyes.scheduler.advance(by: look)
        }
        eyes.scheduler.advance(by: look)
        // X in the centre; O's turn, a press on the X is refused; O in the corner; X's turn, a
        // press on the O is refused; X wins along the diagonal 3-5-7.
        tap([4])
        tap([4, 0, 0], look: .milliseconds(600))
        tap([2, 1])
        tap([6], look: end)
        // O starts and closes row 1-2-3 and column 1-4-7 with one mark.
        newGame()
        tap([1, 4, 2, 5, 3, 8, 6, 7])
        tap([0], look: end)
        // X starts: a draw. Then nothing for the idle time: asleep; a press wakes the board.
        newGame()
        tap([0, 1, 2, 4, 3, 5, 7, 6])
        tap([8], look: end)
        eyes.scheduler.advance(by: settings.game.idleSleep + .seconds(1))
        tap([4], look: end)
        // The choice of each computer level, shown and then its game. The first, level 1, starts
        // (O started the last game): a press while it thinks on the empty board is refused, the
        // matrix otherwise dark.
        for level in ComputerLevel.allCases {
            eyes.person.chooseNextOpponent()
            // The choice shows from the tap, 100 ms into the gesture; the press comes 100 ms into
            // the computer's thinking.
            eyes.scheduler.advance(by: settings.game.opponentShown + .milliseconds(200))
            if level == .allCases[0] { eyes.person.tap(Position.all[4]) }
            eyes.scheduler.advance(by: .milliseconds(800))
        }
        playAgainstTheComputer(on: eyes)
        // The learner's choice, then two players'.
        for _ in 0..<2 {
            eyes.person.chooseNextOpponent()
            eyes.scheduler.advance(by: settings.game.opponentShown + look)
        }
        playAgainstOtherBoards(on: eyes)
    }

    /// Another board invited (it plays O): its game waited for, O's status LED blinking; heard,
    /// a move each; gone again, the marks steady. Then a board that invited this one (it plays
    /// X), waited for under X's blinking LED, its first move heard. (A press refused while
    /// waiting flickers for less than the blink's period: too short to read the status LED in.)
    static func playAgainstOtherBoards(on eyes: EyesOnTheBoard) {
        let look = Duration.milliseconds(1200)
        let viewModel = eyes.board.viewModel
        for other in Headline.exampleBoards {
            viewModel.chooseOpponent.apply(.board(other))
            eyes.scheduler.advance(by: settings.game.opponentShown + look)
            func hear(_ moves: [Int], online: Bool = true) {
                viewModel.hear(PeerReport(board: other.name, online: online, game: PeerGame(side: other.side, number: 1, moves: moves.map { Position.all[$0] })))
                eyes.scheduler.advance(by: look)
            }
            if other.side == .o {
                hear([])
                eyes.person.tap(Position.all[4])
                eyes.scheduler.advance(by: look)
                hear([4, 0])
            } else {
                hear([4])
                eyes.person.tap(Position.all[0])
                eyes.scheduler.advance(by: look)
            }
            hear([4, 0], online: false)
        }
    }

    /// Against the computer, X to move: a press on an empty cell and one on X's mark in the
    /// computer's turn, each refused while it thinks.
    static func playAgainstTheComputer(on eyes: EyesOnTheBoard) {
        #expect(eyes.state.opponent == .computer(.perfect) && eyes.state.board.turn == .x, "\(eyes.state)")
        let thinking = settings.game.computerThinking
        for refused in [0, 4] {
            let free = Position.all.filter { eyes.state.board[$0] == nil && $0 != Position.all[0] }
            eyes.person.tap(free.contains(Position.all[4]) ? Position.all[4] : free[0])
            eyes.scheduler.advance(by: .milliseconds(100))
            eyes.person.tap(Position.all[refused])
            eyes.scheduler.advance(by: thinking)
        }
    }

    @Test("every state of the table, played on the buttons, is read back from the LED lines by a normal, a protan and a deutan eye")
    func everyState() throws {
        // A learner with a box of three levels for the empty board, where it starts its game.
        let snapshot = GameSnapshot(board: Board(), nextStarter: .o, opponent: .person, scores: [:], learner: LearnersBoxEyeTests.taught)
        let eyes = try EyesOnTheBoard(settings: Self.settings, eyes: Self.eyes, restoring: snapshot)
        Self.playEveryState(on: eyes)
        eyes.finish()
        let tally = eyes.tally
        #expect(tally.glimpses.isEmpty, "\(tally.glimpses)")
        #expect(Set(CellAppearance.allCases).subtracting(tally.cellsShown).isEmpty, "never shown: \(Set(CellAppearance.allCases).subtracting(tally.cellsShown))")
        let headlines = Set(MonochromeEye.boardHeadlines)
        #expect(headlines.subtracting(tally.headlinesShown).isEmpty, "never shown: \(headlines.subtracting(tally.headlinesShown))")
        for (index, eye) in Self.eyes.enumerated() {
            #expect(tally.right[index] == tally.stretches && tally.misread[index] == 0,
                    "\(eye.0): \(tally.misread[index]) of \(tally.stretches) misread: \(tally.firstMisreadings[index])")
        }
    }

    /// Every eye's readings of the stretches that showed what `shown` picks, with what was shown.
    static func readings(of eyes: EyesOnTheBoard, where shown: (Appearance) -> Bool) -> [(eye: String, shown: Appearance, read: LEDReading?)] {
        eyes.readings.filter { shown($0.shown) }.map { ($0.eye, $0.shown, try? $0.read.get()) }
    }

    @Test("with colour-only marks (O not dim) the same eyes read O's marks as X's: the dim cue is what they read")
    func withoutTheDimCue() throws {
        var settings = Self.settings
        settings.marks = .colour
        let eyes = try EyesOnTheBoard(settings: settings, eyes: Self.eyes + [("even", .even)])
        eyes.keepsReadings = true
        Self.playEveryState(on: eyes)
        eyes.finish()
        // In the game, each O reads as an X; in the choice of opponent, an offer of O's cells (two
        // players, the computer, the learner, a board playing O: seven) is no offer at all, or
        // another one (the board playing O's row, as X's: the board playing X).
        let inGame = Self.readings(of: eyes) { shown in
            shown.cells.contains { $0.mark == .o } && shown.headline != .asleep && !shown.cells.contains(.offered(.o))
        }
        #expect(inGame.count >= 4 * 20, "only \(inGame.count) readings of O's marks")
        for (eye, shown, read) in inGame {
            for (index, cell) in shown.cells.enumerated() where cell.mark == .o {
                #expect(read?.cells[index].mark == .x, "\(eye) read \(read.map(\.description) ?? "nothing") where \(cell.name) was shown")
            }
        }
        let offers = Self.readings(of: eyes) { $0.cells.contains(.offered(.o)) }
        #expect(offers.count == 4 * 7 && offers.allSatisfy { offer in offer.read.map { !$0.shows(offer.shown) } ?? true }, "\(offers.map(\.read))")
    }

    @Test("with the flicker replaced by a steady amber the same eyes read a refused press as a mark")
    func withoutTheFlicker() throws {
        var settings = Self.settings
        settings.game.flickerHalfPeriod = settings.game.illegalFlash * 2
        let eyes = try EyesOnTheBoard(settings: settings, eyes: Self.eyes + [("even", .even)], expecting: Self.settings.game)
        eyes.keepsReadings = true
        Self.playEveryState(on: eyes)
        eyes.finish()
        let refused = Self.readings(of: eyes) { $0.cells.contains { if case .refused = $0 { true } else { false } } }
        #expect(refused.count == 4 * 5, "\(refused.count) readings of the five refused presses")
        for (eye, shown, read) in refused {
            for (index, cell) in shown.cells.enumerated() {
                guard case .refused = cell, let seen = read?.cells[index] else { continue }
                #expect(seen == .mark(.x) || seen == .mark(.o), "\(eye) read \(seen.name) where \(cell.name) was shown")
            }
            #expect(read != nil && read?.shows(shown) == false, "\(eye) read \(read.map(\.description) ?? "nothing")")
        }
    }

    @Test("a refused press on an empty cell, on an X and on an O is told by its flicker alone, by eyes that remember nothing")
    func refusedByTheFlickerAlone() throws {
        let eyes = try EyesOnTheBoard(settings: Self.settings, eyes: Self.eyes)
        eyes.keepsReadings = true
        eyes.forgets = true
        Self.playEveryState(on: eyes)
        eyes.finish()
        let refused = Self.readings(of: eyes) { $0.cells.contains { if case .refused = $0 { true } else { false } } }
        #expect(Set(refused.flatMap(\.shown.cells)).isSuperset(of: [.refused(nil), .refused(.x), .refused(.o)]))
        for (eye, shown, read) in refused {
            #expect(read?.shows(shown) == true, "\(eye) read \(read.map(\.description) ?? "nothing") where \(LEDReading(cells: shown.cells, headlines: [shown.headline])) was shown")
        }
    }
}

/// The learner's box on the LEDs, read by the same eyes: its three levels, each where the
/// learner's beads put it.
@Suite("The learner's box read without colour")
struct LearnersBoxEyeTests {
    /// A learner that lost three games opened in the centre and two opened on an edge: its box
    /// for the empty board holds 4 beads for a corner, 2 for an edge, 1 for the centre.
    static var taught: MatchboxLearner {
        var learner = MatchboxLearner()
        // O (the learner) starts; X wins down the left column each time.
        let centre = [4, 0, 8, 6, 1, 3], edge = [1, 0, 4, 3, 2, 6]
        for moves in [centre, centre, centre, edge, edge] {
            learner.learn(from: FinishedGame(starter: .o, learner: .o, moves: moves.map { Position.all[$0] }))
        }
        return learner
    }

    @Test("while the learner thinks on the empty board, every eye reads its box from the LED lines: the most on the corners, some on the edges, few in the centre, as its beads say")
    func threeLevels() throws {
        let learner = Self.taught
        let beads = learner.beads(on: Board(starter: .o))
        #expect(beads == [4, 2, 4, 2, 1, 2, 4, 2, 4], "\(beads)")
        let expected = BeadLevel.levels(of: beads).map { $0.map(CellAppearance.beads) ?? .empty }
        #expect(Set(expected) == [.beads(.most), .beads(.some), .beads(.few)])
        let snapshot = GameSnapshot(board: Board(starter: .o), nextStarter: .x, opponent: .learner, scores: [:], learner: learner)
        let eyes = try EyesOnTheBoard(settings: LEDEyeTests.settings, eyes: LEDEyeTests.eyes, restoring: snapshot)
        eyes.keepsReadings = true
        #expect(eyes.shown.cells == expected && eyes.shown.headline == .thinking, "\(eyes.shown)")
        eyes.scheduler.advance(by: LEDEyeTests.settings.game.computerThinking + .milliseconds(300))
        eyes.finish()
        let box = eyes.readings.filter { $0.shown.cells == expected }
        #expect(box.count == LEDEyeTests.eyes.count, "\(eyes.tally.glimpses)")
        for reading in box {
            #expect((try? reading.read.get())?.cells == expected, "\(reading.eye): \(reading.read)")
        }
        #expect(eyes.tally.misread.allSatisfy { $0 == 0 }, "\(eyes.tally.firstMisreadings)")
    }

    @Test("with the box shown steady instead of blinking, the eyes take the learner's beads for marks: the blink is what they read")
    func withoutTheBlink() throws {
        let snapshot = GameSnapshot(board: Board(starter: .o), nextStarter: .x, opponent: .learner, scores: [:], learner: Self.taught)
        var settings = LEDEyeTests.settings
        // A blink slower than the thought: the box stays lit until the learner moves.
        settings.game.blinkHalfPeriod = settings.game.computerThinking * 2
        let eyes = try EyesOnTheBoard(settings: settings, eyes: LEDEyeTests.eyes, expecting: LEDEyeTests.settings.game, restoring: snapshot)
        eyes.keepsReadings = true
        eyes.scheduler.advance(by: settings.game.computerThinking + .milliseconds(300))
        eyes.finish()
        let box = eyes.readings.filter { $0.shown.cells.contains(.beads(.most)) }
        #expect(box.count == LEDEyeTests.eyes.count)
        for reading in box {
            let cells = (try? reading.read.get())?.cells
            #expect(cells?.contains(.beads(.most)) != true, "\(reading.eye) read the box without its blink: \(reading.read)")
        }
    }
}
