import BoardAPI
import BoardProtocol
import Lights
import ViewModel
import Reactive
import TicTacToe
import Testing
@testable import Console

/// The terminal read without colour (issue 39): every state of the table of states, and every
/// state of a thousand random games, drawn by each terminal view (the simulator's screen, plain
/// text, `watch`'s screen and `watch --once`) and read back by ``MonochromeTerminalEye``.
@Suite("The terminal read without colour")
struct TerminalEyeTests {
    static let players = PlayerNames(x: "Alice", o: "Bob")

    /// What each terminal view draws of `appearance`, by name: for the watch, as the board's
    /// API names it, with the opponent it would send.
    static func views(_ appearance: Appearance, players: PlayerNames, opponent: Opponent, phase: Light.Phase = .lit)
        -> [(name: String, text: String, plain: Bool)]
    {
        let facing = players.facing(opponent)
        let view = ViewState(
            cells: Array(repeating: "", count: 9), starter: "X", turn: nil, outcome: "playing", winningLines: [], flashing: nil,
            asleep: false, opponent: opponent.name, thinking: false, names: ViewState.Names(players),
            scores: [opponent.name: ViewState.Tally(xWins: 1, oWins: 2, draws: 3)],
            looks: appearance.cells.map(\.name), headline: appearance.headline.name, marks: MarkStyle.standard.rawValue)
        return [
            ("screen", BoardRenderer.screen(appearance, players: facing, score: Score(), message: "a message", phase: phase), false),
            ("plain", BoardRenderer.plain(appearance, players: facing), true),
            ("watch", RemoteWatch.screen(view, phase: phase, message: ""), false),
            ("watch --once", RemoteWatch.plain(view), true),
        ]
    }

    /// Every headline under grids that put every cell appearance in every cell.
    static var tableStates: [(Appearance, Opponent)] {
        let all = CellAppearance.allCases
        var states: [(Appearance, Opponent)] = []
        for headline in Headline.examples where headline != .unreachable {
            for shift in 0..<all.count {
                let cells = (0..<9).map { all[($0 + shift) % all.count] }
                states.append((Appearance(cells: cells, headline: headline), opponent(showing: headline)))
            }
        }
        return states
    }

    /// Who plays where `headline` can be seen: the one chosen, the computer while it thinks,
    /// the board waited for.
    static func opponent(showing headline: Headline) -> Opponent {
        switch headline {
        case .choosingOpponent(let chosen): chosen
        case .thinking: .computer(.winOrBlock)
        case .waitingForBoard(let side): Headline.exampleBoards.first { $0.side == side }.map(Opponent.board) ?? .person
        default: .person
        }
    }

    private func read(_ text: String, plain: Bool, players: PlayerNames) throws -> Appearance {
        let eye = MonochromeTerminalEye(players: players)
        return plain ? try eye.read(plain: text) : try eye.read(screen: text)
    }

    @Test("every state of the table, in every view, reads back without colour")
    func everyStateOfTheTable() throws {
        var reads = 0
        for (appearance, opponent) in Self.tableStates {
            for phase in [Light.Phase.lit, Light.Phase(blinkOn: false, flickerOn: false)] {
                for view in Self.views(appearance, players: Self.players, opponent: opponent, phase: phase) {
                    let seen = try read(view.text, plain: view.plain, players: Self.players.facing(opponent))
                    #expect(seen == appearance, "\(view.name): \(appearance.cells.map(\.name)) \(appearance.headline.name)")
                    reads += 1
                }
            }
        }
        #expect(reads == 17 * 15 * 2 * 4, "17 headlines (the unreachable one apart), 15 grids, 2 phases, 4 views")
    }

    @Test("the watch without a board: nine unknown cells under the unreachable headline")
    func unreachable() throws {
        let screen = RemoteWatch.unreachableScreen(lastSeen: nil, why: "no board is listening at /run/tictactoe/board.sock")
        let seen = try MonochromeTerminalEye(players: PlayerNames()).read(screen: screen)
        #expect(seen == Appearance(cells: Array(repeating: .empty, count: 9), headline: .unreachable))
    }

    @Test("the watch draws marks as the board's LEDs show them, whichever way the board says")
    func marksAsTheBoardSays() throws {
        var session = SessionState(snapshot: GameSnapshot(board: Board(starter: .x), nextStarter: .o, opponent: .person))
        for key in [5, 1] { _ = session.press(.person(Position(keypadKey: key) ?? Position.all[0])) }
        let appearance = Appearance(session)
        var drawn: [MarkStyle: String] = [:]
        for marks in MarkStyle.allCases {
            let view = ViewState(session, players: Self.players, marks: marks)
            let screen = BoardRenderer.screen(appearance, players: Self.players, score: session.score, message: "", help: RemoteWatch.help, marks: marks)
            #expect(RemoteWatch.screen(view, phase: .lit, message: "") == screen)
            #expect(RemoteWatch.plain(view).hasPrefix(BoardRenderer.plain(appearance, players: Self.players, marks: marks)))
            drawn[marks] = RemoteWatch.screen(view, phase: .lit, message: "")
        }
        #expect(drawn[.colour] != drawn[.colourAndBrightness], "the two ways draw O alike: this test could not fail")
        var older = ViewState(session, players: Self.players, marks: .colour)
        older.marks = nil
        #expect(older.markStyle == .standard)
    }

    @Test("states the session reaches: a double win, a draw, asleep, thinking, the choice of each opponent")
    func sessionStates() throws {
        var states: [SessionState] = []
        var session = SessionState(snapshot: GameSnapshot(board: Board(starter: .x), nextStarter: .o, opponent: .person))
        // X closes the top row and the left column with its fifth mark, in the top left corner.
        for key in [8, 5, 9, 6, 4, 3, 1, 2, 7] { _ = session.press(.person(Position(keypadKey: key) ?? Position.all[0])) }
        #expect(session.board.winningLines.count == 2)
        states.append(session)
        session.toggleBlink()
        states.append(session)
        _ = session.fallAsleep()
        states.append(session)
        _ = session.startNewGame()  // wakes the lights
        for _ in Opponent.allCases {
            _ = session.chooseNextOpponent()
            states.append(session)
        }
        _ = session.chooseNextOpponent()
        session.endShowingOpponent()
        if session.board.turn == .x { _ = session.press(.person(Position.all[4])) }
        states.append(session)
        #expect(Appearance(session).headline == .thinking)
        for state in states {
            let appearance = Appearance(state)
            let view = ViewState(state, players: Self.players, marks: .standard)
            let facing = Self.players.facing(state.opponent)
            let phase = Light.Phase(of: state)
            let texts = [
                (BoardRenderer.screen(appearance, players: facing, score: state.score, message: "", phase: phase), false),
                (BoardRenderer.plain(appearance, players: facing), true),
                (RemoteWatch.screen(view, phase: phase, message: ""), false), (RemoteWatch.plain(view), true),
            ]
            for (text, plain) in texts { #expect(try read(text, plain: plain, players: facing) == appearance, "\(text)") }
        }
    }
}
