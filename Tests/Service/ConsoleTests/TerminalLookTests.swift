import Lights
import ViewModel
import TicTacToe
import Testing
@testable import Console

/// The terminal's column of the table of states, and the monochrome eye's own checks: it takes
/// out every escape, and it fails on a renderer that shows a state by colour alone.
@Suite("Terminal look")
struct TerminalLookTests {
    @Test("each appearance has its own text, three columns wide, free of escapes, with its mark as a letter")
    func texts() {
        let texts = CellAppearance.allCases.map(TerminalLook.text(of:))
        #expect(Set(texts).count == CellAppearance.allCases.count, "\(texts)")
        for appearance in CellAppearance.allCases {
            let text = TerminalLook.text(of: appearance)
            #expect(text.count == 3 && !text.contains("\u{1B}"), "\(appearance.name)")
            for player in Player.allCases {
                #expect(text.contains(player.rawValue) == (appearance.mark == player), "\(appearance.name): \(text)")
            }
        }
    }

    @Test("colour is an addition: the LED's colour and weight around the same text, faint when off")
    func styled() throws {
        for appearance in CellAppearance.allCases {
            for phase in [Light.Phase.lit, Light.Phase(blinkOn: false, flickerOn: false)] {
                #expect(try MonochromeTerminalEye.strip(TerminalLook.styled(appearance, phase: phase)) == TerminalLook.text(of: appearance))
            }
        }
        #expect(TerminalLook.styled(.mark(.x)) == "\u{1B}[1;31m X \u{1B}[0m")
        #expect(TerminalLook.styled(.mark(.o)) == "\u{1B}[2;32m O \u{1B}[0m", "O dim, as its LED")
        #expect(TerminalLook.styled(.mark(.o), marks: .colour) == "\u{1B}[1;32m O \u{1B}[0m")
        #expect(TerminalLook.styled(.refused(.x)) == "\u{1B}[1;33m!X!\u{1B}[0m")
        #expect(TerminalLook.styled(.winning(.x), phase: Light.Phase(blinkOn: false, flickerOn: true)) == "\u{1B}[2m[X]\u{1B}[0m")
        let flickerOff = Light.Phase(blinkOn: true, flickerOn: false)
        #expect(TerminalLook.styled(.refused(.o), phase: flickerOff) == "\u{1B}[2;32m!O!\u{1B}[0m", "the mark beneath, as its LED")
        #expect(TerminalLook.styled(.refused(nil), phase: flickerOff) == "\u{1B}[2m!·!\u{1B}[0m")
        #expect(TerminalLook.styled(.mark(.x), lightsOut: true) == "\u{1B}[2m X \u{1B}[0m")
    }

    @Test("every headline has its own words, whatever the players are called")
    func words() {
        for players in [PlayerNames(), PlayerNames(x: "Alice", o: "Bob"), PlayerNames(x: "O", o: "X"), PlayerNames(x: "Bob (O)", o: "X")] {
            for facing in Opponent.allCases.map(players.facing) {
                let words = Headline.examples.map { TerminalLook.words(for: $0, players: facing) }
                #expect(Set(words).count == Headline.examples.count, "\(words)")
            }
        }
    }

    @Test("the eye takes out every escape sequence, not only colours")
    func strip() throws {
        let text = "\u{1B}[H\u{1B}[2J\u{1B}[?25l\u{1B}]0;title\u{07}a\u{1B}[38;5;196mb\u{1B}(Bc\u{1B}7d\u{9B}1me\u{1B}]8;;x\u{1B}\\f\u{1B}[K\r\n"
        #expect(try MonochromeTerminalEye.strip(text) == "abcdef\n")
        #expect(throws: MonochromeTerminalEye.Misread.self) { try MonochromeTerminalEye.strip("a\u{07}b") }
    }

    /// The real screen of `appearance`, with each cell's text swapped by `recolour` while its
    /// colour stays: a renderer that tells cells apart by colour alone.
    private func colourOnlyScreen(_ appearance: Appearance, players: PlayerNames, recolour: (CellAppearance) -> CellAppearance) -> String {
        var screen = BoardRenderer.screen(appearance, players: players, score: Score(), message: "")
        for cell in Set(appearance.cells) {
            let styled = TerminalLook.styled(cell, lightsOut: FrameRenderer.isDark(appearance.headline))
            screen = screen.replacing(styled, with: styled.replacing(TerminalLook.text(of: cell), with: TerminalLook.text(of: recolour(cell))))
        }
        return screen
    }

    @Test("the eye fails on a renderer that draws O with X's glyph, as watch once did")
    func oAsX() throws {
        let players = PlayerNames(x: "Alice", o: "Bob")
        var drawnAsX = 0
        for (appearance, opponent) in TerminalEyeTests.tableStates where appearance.cells.contains(where: { $0.mark == .o }) {
            let screen = colourOnlyScreen(appearance, players: players.facing(opponent)) { cell in
                switch cell {
                case .mark(.o): .mark(.x)
                case .winning(.o): .winning(.x)
                case .drawn(.o): .drawn(.x)
                case .refused(.o?): .refused(.x)
                case .offered(.o): .offered(.x)
                default: cell
                }
            }
            #expect((try? MonochromeTerminalEye(players: players.facing(opponent)).read(screen: screen)) != appearance)
            drawnAsX += 1
        }
        #expect(drawnAsX > 100)
    }

    @Test("the eye fails on a renderer that shows a win, a draw, a refused press or the choice by colour alone")
    func signsRemoved() {
        let players = PlayerNames(x: "Alice", o: "Bob")
        for (appearance, opponent) in TerminalEyeTests.tableStates {
            let screen = colourOnlyScreen(appearance, players: players.facing(opponent)) { cell in
                cell.mark.map(CellAppearance.mark) ?? .empty
            }
            let plainMarksOnly = appearance.cells.allSatisfy { cell in cell.mark.map(CellAppearance.mark) ?? .empty == cell }
            let seen = try? MonochromeTerminalEye(players: players.facing(opponent)).read(screen: screen)
            #expect((seen == appearance) == plainMarksOnly)
        }
    }

    @Test("the eye fails on a screen whose headline is told only by the status LEDs, as watch's message once replaced it")
    func headlineRemoved() {
        let appearance = Appearance(cells: Array(repeating: .empty, count: 9), headline: .toMove(.x))
        let screen = BoardRenderer.screen(appearance, players: PlayerNames(), score: Score(), message: "")
            .replacing(TerminalLook.words(for: .toMove(.x), players: PlayerNames()), with: "")
        #expect(throws: MonochromeTerminalEye.Misread.self) { try MonochromeTerminalEye(players: PlayerNames()).read(screen: screen) }
    }
}
