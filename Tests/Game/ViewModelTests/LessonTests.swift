import Basics
import Matchboxes
import Reactive
import TestSupport
import TicTacToe
import Testing
@testable import ViewModel

/// The learner taught on purpose: games against the computer played a step at a time on the
/// game's scheduler, in virtual time.
@Suite("Teaching the learner")
struct LessonTests {
    let scheduler = TestScheduler()
    let input: Signal<Position>.Input
    let viewModel: GameViewModel

    init() {
        let presses: Signal<Position>
        (presses, input) = Signal<Position>.pipe()
        viewModel = GameViewModel(
            positions: presses, timings: GameTimings(idleSleep: .seconds(600), computerThinking: .milliseconds(600), opponentShown: .milliseconds(1500)),
            scheduler: scheduler, firstStarter: .x, opponent: .person, random: SeededRandom(seed: 11))
    }

    var lesson: Lesson? { viewModel.state.value.lesson }

    @Test("a lesson plays its games a step at a time, each step's learning in the state, then ends: in the learner's record, in no score")
    func wholeLesson() throws {
        let before = viewModel.state.value
        #expect(viewModel.teach(games: 60, against: .random) == .started)
        #expect(lesson?.played == 0 && lesson?.isUnderWay == true && lesson?.games == 60 && lesson?.against == .random)
        #expect(viewModel.state.value.learner == before.learner, "nothing is played before the first step")
        let steps = Protected<[Int]>([])
        let watching = viewModel.state.signal.observeValues { state in steps.withValue { $0.append(state.lesson?.played ?? -1) } }
        scheduler.advance(by: Lesson.pace)
        #expect(lesson?.played == Lesson.gamesPerStep && viewModel.state.value.learner.record.games == Lesson.gamesPerStep)
        scheduler.advance(by: Lesson.pace * (60 / Lesson.gamesPerStep + 5))
        watching.dispose()
        #expect(steps.value == Array(stride(from: Lesson.gamesPerStep, through: 60, by: Lesson.gamesPerStep)), "one state a step")
        let after = viewModel.state.value
        let taught = try #require(after.lesson)
        #expect(taught.end == .finished && taught.played == 60 && taught.results.games == 60)
        #expect(after.learner.record.games == 60 && after.learner.record.total == taught.results)
        #expect(!after.learner.boxes.isEmpty)
        #expect(after.scores == before.scores && after.board == before.board, "no one's game at the board")
        #expect(after.snapshot.learner == after.learner, "what is saved is what it learnt")
    }

    @Test("the same seed teaches the same learner; the lesson's draws shift no choice at the board")
    func deterministic() {
        let twin = GameViewModel(positions: .never, scheduler: scheduler, firstStarter: .x, opponent: .person, random: SeededRandom(seed: 11))
        #expect(viewModel.teach(games: 40, against: .fallible) == .started)
        #expect(twin.teach(games: 40, against: .fallible) == .started)
        scheduler.advance(by: Lesson.pace * (40 / Lesson.gamesPerStep + 1))
        #expect(viewModel.state.value.learner == twin.state.value.learner)
        #expect(viewModel.state.value.learner.record.games == 40)
    }

    @Test("refused while a game against the learner is under way, while another lesson is, and for a count of games out of range; nothing changes")
    func refused() {
        #expect(viewModel.teach(games: 0, against: .perfect) == .badCount)
        #expect(viewModel.teach(games: Lesson.mostGames + 1, against: .perfect) == .badCount)
        #expect(lesson == nil)
        #expect(viewModel.teach(games: 100, against: .perfect) == .started)
        #expect(viewModel.teach(games: 100, against: .perfect) == .underWay)
        #expect(viewModel.stopLesson())
        // The learner starts the next game (O, after X started the first): it is about to move.
        viewModel.chooseOpponent.apply(.learner)
        scheduler.advance(by: .milliseconds(1500))
        #expect(viewModel.state.value.learnerInGame && viewModel.board.value.starter == .o)
        let before = viewModel.state.value
        #expect(viewModel.teach(games: 100, against: .perfect) == .learnerPlaying)
        #expect(viewModel.state.value == before)
    }

    @Test("stopped: what it taught so far is kept, and no step follows")
    func stopped() {
        #expect(viewModel.teach(games: 1000, against: .winOrBlock) == .started)
        scheduler.advance(by: Lesson.pace * 2)
        let taught = viewModel.state.value.learner
        #expect(viewModel.stopLesson())
        #expect(lesson?.end == .stopped && lesson?.played == 2 * Lesson.gamesPerStep)
        scheduler.advance(by: .seconds(10))
        #expect(viewModel.state.value.learner == taught && taught.record.games == 2 * Lesson.gamesPerStep)
        #expect(!viewModel.stopLesson(), "nothing left to stop")
    }

    @Test("a game against the learner begun at the board, or a reset, ends the lesson at its next step; the person comes first")
    func interrupted() {
        #expect(viewModel.teach(games: 1000, against: .perfect) == .started)
        scheduler.advance(by: Lesson.pace)
        // The learner chosen at the board: it starts the next game, and is about to move.
        viewModel.chooseOpponent.apply(.learner)
        #expect(viewModel.state.value.learnerInGame)
        let playing = viewModel.state.value.learner
        scheduler.advance(by: Lesson.pace)
        #expect(lesson?.end == .interrupted && lesson?.played == Lesson.gamesPerStep)
        #expect(viewModel.state.value.learner == playing, "the game's boxes are left alone")

        viewModel.chooseOpponent.apply(.person)
        scheduler.advance(by: .milliseconds(1500))
        #expect(!viewModel.state.value.learnerInGame)
        #expect(viewModel.teach(games: 1000, against: .perfect) == .started)
        scheduler.advance(by: Lesson.pace)
        #expect(viewModel.resetLearner(ifGames: nil) == .done)
        scheduler.advance(by: Lesson.pace * 3)
        #expect(lesson?.end == .interrupted)
        #expect(viewModel.state.value.learner.record.games == 0, "the fresh learner is not taught by the old one's lesson")
    }
}
