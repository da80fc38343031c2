import Lights
import Matchboxes
import TicTacToe
import Testing
@testable import ViewModel

/// The one definition of what each state shows, and the LEDs' reading of it.
@Suite("Appearance")
struct AppearanceTests {
    private func state(_ moves: [Int], starter: Player = .x, opponent: Opponent = .person) throws -> SessionState {
        var board = Board(starter: starter)
        for move in moves { board = try board.playing(Position.all[move]) }
        return SessionState(snapshot: GameSnapshot(board: board, nextStarter: starter.opponent, opponent: opponent))
    }

    private func names(_ appearance: Appearance) -> String {
        appearance.cells.map(\.name).joined(separator: " ") + " | " + appearance.headline.name
    }

    @Test("a game in progress: marks, and whose turn")
    func inProgress() throws {
        #expect(names(Appearance(try state([4, 0]))) == "o empty empty empty x empty empty empty empty | x-to-move")
        #expect(Appearance(try state([4])).headline == .toMove(.o))
        #expect(Appearance(try state([4], opponent: .computer(.perfect))).headline == .thinking)
    }

    @Test("a win along two lines closed by one mark: both lines winning, the other marks plain")
    func doubleWin() throws {
        // X holds the four corners; the centre closes both diagonals.
        let won = try state([0, 1, 2, 3, 6, 5, 8, 7, 4])
        #expect(won.board.winningLines.count == 2)
        let appearance = Appearance(won)
        #expect(appearance.headline == .won(.x))
        for index in [0, 2, 4, 6, 8] { #expect(appearance.cells[index] == .winning(.x), "cell \(index)") }
        for index in [1, 3, 5, 7] { #expect(appearance.cells[index] == .mark(.o), "cell \(index)") }
    }

    @Test("a draw: every mark drawn")
    func draw() throws {
        let drawn = Appearance(try state([0, 1, 2, 4, 3, 5, 7, 6, 8]))
        #expect(drawn.headline == .draw)
        #expect(drawn.cells.allSatisfy { if case .drawn = $0 { true } else { false } })
    }

    @Test("a refused press: on an empty cell (the computer's turn), on X, on O")
    func refused() throws {
        var against = try state([4], opponent: .computer(.perfect))
        _ = against.press(.person(Position.all[0]))
        #expect(Appearance(against).cells[0] == .refused(nil))
        var taken = try state([4, 0])
        _ = taken.press(.person(Position.all[4]))
        #expect(Appearance(taken).cells[4] == .refused(.x))
        _ = taken.press(.person(Position.all[0]))
        #expect(Appearance(taken).cells[0] == .refused(.o))
        #expect(Appearance(taken).cells[4] == .mark(.x), "one refused cell at a time")
    }

    @Test("asleep: the cells kept, the headline asleep; the LEDs dark")
    func asleep() throws {
        var sleeping = try state([4])
        _ = sleeping.fallAsleep()
        let appearance = Appearance(sleeping)
        #expect(appearance.headline == .asleep && appearance.cells[4] == .mark(.x))
        #expect(FrameRenderer.frame(of: sleeping) == .dark)
    }

    @Test("the chooser: the opponent's cells offered, whatever the game")
    func chooser() throws {
        var choosing = try state([4, 0])
        _ = choosing.choose(.computer(.perfect))
        #expect(names(Appearance(choosing)) == "o-offered o-offered o-offered o-offered empty empty empty empty empty | choosing-opponent")
        _ = choosing.choose(.person)
        #expect(Appearance(choosing).cells.map(\.name) == ["x-offered", "empty", "o-offered"] + Array(repeating: "empty", count: 6))
    }

    @Test("every cell appearance and headline has its own name")
    func namesAreDistinct() {
        #expect(Set(CellAppearance.allCases.map(\.name)).count == CellAppearance.allCases.count)
        let headlines = Set(Headline.examples.map(\.name))
        let choices = Opponent.allCases.count + Headline.exampleBoards.count
        #expect(headlines.count == Headline.examples.count - choices + 1, "the choice of opponent is one name")
    }

    @Test("on the LEDs, without colour, the appearances of one headline differ in brightness or in time")
    func ledsWithoutColour() {
        // What a person with no colour vision can tell of one cell: lit or dark in each phase, and
        // how bright. The amber of a refused press is both dies: brighter than either mark alone.
        func seen(_ appearance: CellAppearance) -> [String] {
            let phases = [true, false].flatMap { blink in [true, false].map { Light.Phase(blinkOn: blink, flickerOn: $0) } }
            return phases.map { phase in
                guard let shown = FrameRenderer.light(of: appearance)?.shown(in: phase) else { return "dark" }
                return "\(shown.color == .amber ? "both" : "one") \(shown.brightness)"
            }
        }
        // Within a game in progress the cells can be empty, a mark, or a refused press.
        let playing: [CellAppearance] = [.empty, .mark(.x), .mark(.o), .refused(nil), .refused(.x), .refused(.o)]
        #expect(Set(playing.map(seen)).count == playing.count)
        let won: [CellAppearance] = [.empty, .mark(.x), .mark(.o), .winning(.x), .winning(.o)]
        #expect(Set(won.map(seen)).count == won.count)
        // While the learner thinks: its box's three levels beside the marks and refused presses.
        let thinking = playing + BeadLevel.allCases.map(CellAppearance.beads)
        #expect(Set(thinking.map(seen)).count == thinking.count)
    }

    @Test("the learner's box while it thinks: each free cell's beads as a level next to the most; none for a forced move, another opponent, or asleep")
    func learnersBox() throws {
        var learner = MatchboxLearner()
        // Lost twice after opening on an edge, three times after the centre (X down the left column).
        for moves in [[4, 0, 8, 6, 1, 3], [4, 0, 8, 6, 1, 3], [4, 0, 8, 6, 1, 3], [1, 0, 4, 3, 2, 6], [1, 0, 4, 3, 2, 6]] {
            learner.learn(from: FinishedGame(starter: .o, learner: .o, moves: moves.map { Position.all[$0] }))
        }
        var state = SessionState(snapshot: GameSnapshot(board: Board(starter: .o), nextStarter: .x, opponent: .learner, scores: [:], learner: learner))
        #expect(names(Appearance(state)) == "beads-most beads-some beads-most beads-some beads-few beads-some beads-most beads-some beads-most | o-thinking")
        #expect(state.showsLearnersBox && state.isBlinking)
        // A cell with no bead left stays dark; taken cells keep their marks.
        #expect(BeadLevel.levels(of: [0, 3, 0, 0, 2, 1, 0, 0, 0]) == [nil, .most, nil, nil, .some, .few, nil, nil, nil])
        #expect(BeadLevel(7, of: 9) == .most && BeadLevel(6, of: 9) == .some && BeadLevel(3, of: 9) == .few && BeadLevel(4, of: 9) == .some)
        // The same board against the computer: no box.
        state.opponent = .computer(.perfect)
        #expect(!Appearance(state).cells.contains { if case .beads = $0 { true } else { false } } && !state.isBlinking)
        // A forced move (one cell free): no box to draw from.
        let forced = try self.state([0, 1, 2, 4, 3, 5, 7, 6], starter: .o, opponent: .learner)
        #expect(forced.board.turn == .o && names(Appearance(forced)).hasPrefix("o x o o x x x o empty"))
        state.opponent = .learner
        _ = state.fallAsleep()
        #expect(Appearance(state).headline == .asleep && !state.showsLearnersBox && !state.isBlinking)
    }

    @Test("the status LEDs tell every headline of a game apart by place and time")
    func statusLights() {
        func seen(_ headline: Headline) -> String {
            let lights = FrameRenderer.statusLights(of: headline)
            return "\(lights.x?.pattern.rawValue ?? "dark") \(lights.o?.pattern.rawValue ?? "dark")"
        }
        let game: [Headline] = [.toMove(.x), .toMove(.o), .won(.x), .won(.o), .draw, .asleep]
        #expect(Set(game.map(seen)).count == game.count)
        #expect(seen(.thinking) == seen(.toMove(.o)), "against the computer, O to move is its thinking")
    }
}
