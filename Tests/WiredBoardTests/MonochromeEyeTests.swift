import BoardSimulation
import Devices
import GPIO
import Lights
import Presentation
import Reactive
import SimulatedGPIO
import TestSupport
import Testing
import TicTacToe
@testable import WiredBoard

/// A player who sees no colour at all: only how bright each cell is (``FramePerception``'s
/// monochrome reading of the LED lines). With O's marks dim, that alone must tell who holds
/// every cell of every settled board; with colour only, it cannot.
@Suite("A monochrome eye reads the board")
struct MonochromeEyeTests {
    /// What a soak of seeded random games showed.
    struct Soak {
        var games = 0, settledBoards = 0, misread = 0, againstComputer = 0
        var firstMisreading: String?
    }

    /// Plays `games` seeded random games on the simulated chip, every other one against the
    /// computer at a level chosen by the seed; after every move that settles, the monochrome eye
    /// says who holds each cell (full: X, dim: O, dark: nobody), compared with the game.
    static func soak(games: Int, marks: MarkStyle, seed: UInt64) throws -> Soak {
        var random = SeededRandom(seed: seed)
        var result = Soak()
        for game in 0..<games {
            let scheduler = TestScheduler()
            let chip = SimulatedChip(clock: scheduler, historyCapacity: 4096)
            let opponent: Opponent = game % 2 == 0 ? .person : .computer(ComputerLevel.allCases.randomElement(using: &random) ?? .perfect)
            if opponent != .person { result.againstComputer += 1 }
            var settings = BoardSettings(opponent: opponent, marks: marks)
            // The longest row period these marks allow: the fewest scan steps to simulate.
            settings.scanRowPeriod = settings.longestScanRow
            settings.game.computerThinking = .milliseconds(20)
            let starter: Player = random.next() % 2 == 0 ? .x : .o
            let board = try GameBoard(
                chip: chip, settings: settings, scheduler: scheduler,
                restoring: GameSnapshot(board: Board(starter: starter), opponent: opponent), random: SeededRandom(seed: random.next()))
            board.start()
            let person = SimulatedBoard(chip: chip, pins: settings.pins, scheduler: scheduler)
            scheduler.advance(by: .milliseconds(50))
            var moves = 0
            while case .inProgress(let next) = board.viewModel.state.value.board.outcome, moves < 9 {
                let before = board.viewModel.state.value.board
                if next == .o && opponent != .person {
                    scheduler.advance(by: .milliseconds(60))  // the computer's thinking, and its move shown
                } else {
                    let free = Position.all.filter { before[$0] == nil }
                    guard let cell = free.randomElement(using: &random) else { break }
                    person.tap(cell, for: .milliseconds(30))
                    scheduler.advance(by: .milliseconds(70))
                }
                let state = board.viewModel.state.value
                #expect(state.board != before, "game \(game): the move never landed")
                moves += 1
                // Settled: no amber flash, and a finished game looked at while its lines are lit.
                guard state.flashing == nil, state.blinkOn else { continue }
                let seen = person.eye.brightness(on: chip, endingAt: scheduler.now)
                let read = seen.map { brightness -> Player? in brightness.map { $0 == .full ? .x : .o } }
                let truth = Position.all.map { state.board[$0] }
                result.settledBoards += 1
                if read != truth {
                    result.misread += 1
                    if result.firstMisreading == nil {
                        result.firstMisreading = "game \(game), move \(moves): saw \(seen), the board holds \(truth)"
                    }
                }
            }
            board.shutdown()
            result.games += 1
        }
        return result
    }

    @Test("with O's marks dim, brightness alone tells who holds every cell of 1,000 random games, the computer's included")
    func readsEveryBoard() throws {
        let soak = try Self.soak(games: 1000, marks: .colourAndBrightness, seed: 24)
        #expect(soak.games == 1000 && soak.againstComputer == 500)
        #expect(soak.settledBoards >= 5000, "only \(soak.settledBoards) boards looked at")
        #expect(soak.misread == 0, "\(soak.misread) of \(soak.settledBoards) misread; first: \(soak.firstMisreading ?? "")")
    }

    @Test("with colour only, the same eye cannot tell the marks apart: the test can fail")
    func colourAloneIsNotEnough() throws {
        let soak = try Self.soak(games: 20, marks: .colour, seed: 24)
        #expect(soak.settledBoards > 0 && soak.misread > 0, "\(soak)")
    }
}
