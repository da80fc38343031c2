import BoardSimulation
import Matchboxes
import ViewModel
import Reactive
import SimulatedGPIO
import TestSupport
import Testing
import TicTacToe
@testable import WiredBoard

/// The learner on a whole board: its boxes come from the saved game, its rules from the settings.
@Suite("The learner on the simulated chip")
struct LearnerOnTheBoardTests {
    @Test("the board's learner keeps the saved boxes and counts beads by the configured rules, played on the buttons")
    func configuredRules() throws {
        let scheduler = TestScheduler()
        let chip = SimulatedChip(clock: scheduler)
        var trained = MatchboxLearner()
        var computer = ComputerPlayer(level: .random, random: SeededRandom(seed: 9))
        var random = SeededRandom(seed: 10)
        for game in 0..<30 { _ = TrainingGame.play(&trained, against: &computer, starter: game % 2 == 0 ? .x : .o, using: &random) }
        let rules = LearnerRules(initialBeads: [9, 8, 7, 6], win: 5, draw: 2, loss: 4)
        let settings = BoardSettings(opponent: .learner, learnerRules: .michie, michieCounts: rules)
        let saved = GameSnapshot(board: Board(starter: .x), nextStarter: .o, opponent: .learner, scores: [:], learner: trained)
        let board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler, restoring: saved, random: SeededRandom(seed: 11))
        defer { board.shutdown() }
        board.start()
        let person = SimulatedBoard(chip: chip, pins: .standard, scheduler: scheduler)
        scheduler.advance(by: .milliseconds(50))

        let before = board.viewModel.state.value.learner
        #expect(before.rules == rules && before.boxes == trained.boxes && before.record == trained.record)
        while !board.viewModel.state.value.board.isOver {
            let state = board.viewModel.state.value.board
            if state.turn == .x, let cell = Position.all.first(where: { state[$0] == nil }) { person.tap(cell) }
            scheduler.advance(by: .milliseconds(800))
        }
        let after = board.viewModel.state.value
        var expected = before
        expected.learn(from: FinishedGame(starter: .x, learner: .o, moves: Array(try #require(after.moves))))
        #expect(after.learner == expected)
        #expect(after.learner.record.games == trained.record.games + 1)
    }
}
