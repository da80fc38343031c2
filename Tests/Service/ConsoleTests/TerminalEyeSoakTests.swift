import BoardAPI
import Basics
import BoardProtocol
import Lights
import ViewModel
import Reactive
import TicTacToe
import TestSupport
import Testing
@testable import Console

/// The monochrome eye over played games: a seeded soak of random games on the view model in
/// virtual time (refused presses, presses in the computer's turn and after the end, double wins,
/// draws, sleep, the choice of opponent, held new games, another board that comes and goes),
/// every state it passes through drawn by
/// every terminal view and read back; and the eye's own check, that it fails on a renderer that
/// tells states apart by colour alone.
@Suite("The terminal read without colour, over random games", .soak)
struct TerminalEyeSoakTests {
    /// What the soak saw, to hold it to its claims.
    struct Tally {
        var games = 0
        var frames = 0
        var doubleWins = 0
        var cells: Set<CellAppearance> = []
        var headlines: Set<Headline> = []
        var misread: [String] = []
    }

    /// Plays `games` finished games from `seed`, reading every state in every view.
    static func soak(games: Int, seed: UInt64) -> Tally {
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let timings = GameTimings(idleSleep: .seconds(8))
        let names = [PlayerNames(), PlayerNames(x: "Alice", o: "Bob"), PlayerNames(x: "O", o: "X")][Int(seed % 3)]
        let viewModel = GameViewModel(positions: presses, timings: timings, scheduler: scheduler, players: names, random: SeededRandom(seed: seed))
        let tally = Protected(Tally())
        let opponents = Opponent.allCases + Headline.exampleBoards.map(Opponent.board)
        let eyes = Dictionary(uniqueKeysWithValues: opponents.map { ($0, MonochromeTerminalEye(players: names.facing($0))) })
        let last = Protected<SessionState?>(nil)

        let watching = viewModel.state.producer.startWithValues { state in
            // An input that changes nothing shows nothing new.
            guard last.withValue({ last in defer { last = state }; return last != state }) else { return }
            let misread = Self.misreadings(of: state, players: names, eye: eyes[state.opponent] ?? MonochromeTerminalEye(players: names))
            tally.withValue { tally in
                tally.frames += 1
                tally.misread += misread.prefix(5 - min(5, tally.misread.count))
                let appearance = Appearance(state)
                tally.cells.formUnion(appearance.cells)
                tally.headlines.insert(appearance.headline)
            }
        }
        defer { watching.dispose() }
        var random = SeededRandom(seed: seed)
        while tally.value.games < games {
            let wasOver = viewModel.state.value.board.isOver
            act(Int.random(in: 0..<100, using: &random), on: viewModel, input: input, scheduler: scheduler, random: &random)
            let board = viewModel.state.value.board
            if board.isOver && !wasOver {
                tally.withValue {
                    $0.games += 1
                    if board.winningLines.count > 1 { $0.doubleWins += 1 }
                }
            }
        }
        return tally.value
    }

    /// One thing a person (or time) does, by `roll` out of 100.
    private static func act(
        _ roll: Int, on viewModel: GameViewModel, input: Signal<Position>.Input, scheduler: TestScheduler, random: inout SeededRandom
    ) {
        let state = viewModel.state.value, board = state.board
        if let other = state.opponent.remote, roll < 45 {
            hearOther(other, in: state, on: viewModel, random: &random)
            return
        }
        // Mostly wait for the computer: a press in its turn is refused (and flickers) each time.
        if state.awaitsComputer && roll < 85 {
            scheduler.advance(by: .milliseconds(Int.random(in: 10...700, using: &random)))
            return
        }
        let free = Position.all.filter { board[$0] == nil }
        if board.isOver && roll.isMultiple(of: 2) {
            viewModel.newGame.apply()
            return
        }
        switch roll {
        case 0..<50: input.send(free.randomElement(using: &random) ?? Position.all[0])
        case 50..<62: input.send(Position.all[Int.random(in: 0..<9, using: &random)])
        case 62..<84: scheduler.advance(by: .milliseconds(Int.random(in: 10...700, using: &random)))
        case 84..<92: viewModel.newGame.apply()
        case 92..<94: viewModel.startOver.apply()
        case 94..<98: viewModel.nextOpponent.apply()
        case 98: viewModel.chooseOpponent.apply(.board(Headline.exampleBoards[Int.random(in: 0..<2, using: &random)]))
        default: scheduler.advance(by: .seconds(9))
        }
    }

    /// The other board, when one plays: one time in ten it goes (its report says offline), else
    /// it is here, and in its turn it moves; now and then, once the game is over, it starts the
    /// next one.
    private static func hearOther(_ other: RemoteBoard, in state: SessionState, on viewModel: GameViewModel, random: inout SeededRandom) {
        let online = Int.random(in: 0..<10, using: &random) > 0
        var number = max(state.remote.game, 1), moves = Array(state.moves ?? MoveList())
        if state.board.isOver && Bool.random(using: &random) {
            number += 1
            moves = []
        } else if state.remote.isHere, state.board.turn == other.side,
            let free = Position.all.filter({ state.board[$0] == nil }).randomElement(using: &random) {
            moves.append(free)
        }
        viewModel.hear(PeerReport(board: other.name, online: online, game: PeerGame(side: other.side, number: number, moves: moves)))
    }

    /// How each view misread `state`, if it did.
    static func misreadings(of state: SessionState, players: PlayerNames, eye: MonochromeTerminalEye) -> [String] {
        let appearance = Appearance(state)
        let facing = players.facing(state.opponent)
        let phase = Light.Phase(of: state)
        let view = ViewState(state, players: players, marks: .standard)
        let views: [(String, () throws -> Appearance)] = [
            ("screen", { try eye.read(screen: BoardRenderer.screen(appearance, players: facing, score: state.score, message: "", phase: phase)) }),
            ("plain", { try eye.read(plain: BoardRenderer.plain(appearance, players: facing)) }),
            ("watch", { try eye.read(screen: RemoteWatch.screen(view, phase: phase, message: "")) }),
            ("watch --once", { try eye.read(plain: RemoteWatch.plain(view)) }),
        ]
        return views.compactMap { name, read in
            do {
                let seen = try read()
                return seen == appearance ? nil : "\(name) read \(seen) for \(appearance)"
            } catch {
                return "\(name): \(error)"
            }
        }
    }

    @Test("1,000 random games: every state, in every view, reads back without colour")
    func thousandGames() {
        let tally = Self.soak(games: 1_000, seed: 39)
        #expect(tally.misread.isEmpty, "\(tally.misread)")
        #expect(tally.doubleWins > 0)
        #expect(tally.cells == Set(CellAppearance.allCases), "never seen: \(Set(CellAppearance.allCases).subtracting(tally.cells))")
        #expect(tally.headlines == Set(Headline.examples.filter { $0 != .unreachable }))
        print("monochrome soak: \(tally.games) games, \(tally.frames) states, \(tally.doubleWins) double wins, each read in 4 views")
    }
}
