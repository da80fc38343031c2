import Console
import Foundation
@testable import reference_docs
import Testing
import TestSupport
import ViewModel

private let repository = repositoryRoot

private func repositoryFile(_ path: String) -> String {
    (try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)) ?? ""
}

/// The table of states in docs/VIEWS.md (written by `make docs`, held to the document by
/// `ReferenceDocsTests`), held to the views: the LEDs' and the terminal's columns are their
/// code's own words, the page's are the style sheet's lines, each held to a rule.
@Suite("The table of states")
struct StateTableTests {
    let styles = repositoryFile("web/board.css")
    let script = repositoryFile("web/board.js")

    @Test("the page has words and a rule for every cell appearance and headline")
    func pageCoversEveryName() {
        let words = StateTable.pageWords(styles)
        for appearance in CellAppearance.allCases {
            #expect(words["look \(appearance.name)"] != nil, "web/board.css says nothing of \(appearance.name)")
            #expect(styles.contains("[data-look=\"\(appearance.name)\"]"), "web/board.css draws no \(appearance.name)")
        }
        for headline in Headline.examples {
            #expect(words["headline \(headline.name)"] != nil, "web/board.css says nothing of \(headline.name)")
            #expect(styles.contains("[data-headline=\"\(headline.name)\"]"), "web/board.css draws no \(headline.name)")
        }
        let named = Set(CellAppearance.allCases.map { "look \($0.name)" } + Headline.examples.map { "headline \($0.name)" })
        #expect(Set(words.keys) == named, "web/board.css describes a name the board does not send")
    }

    @Test("the page says each look in the board's words and draws what the board sends")
    func pageWordsAreTheBoards() {
        for appearance in CellAppearance.allCases {
            #expect(script.contains("\"\(appearance.name)\": \"\(appearance.words)\""), "web/board.js's lookWords for \(appearance.name)")
        }
        #expect(script.contains("state.looks") && script.contains("state.headline"))
    }

    @Test("the page's column comes from the style sheet's lines")
    func pageWordsParsed() {
        let words = StateTable.pageWords("/* x\n   look x: \"X\" on red\n   headline draw: a double frame */\n")
        #expect(words == ["look x": "\"X\" on red", "headline draw": "a double frame"])
    }

    @Test("the terminal's colour is read from the escapes it writes")
    func colourWords() {
        #expect(StateTable.colourWords(TerminalLook.styled(.mark(.x))) == "bold red")
        #expect(StateTable.colourWords(TerminalLook.styled(.mark(.o))) == "faint green")
        #expect(StateTable.colourWords("plain") == "none")
    }
}
