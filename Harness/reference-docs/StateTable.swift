import Console
import TicTacToe
import ViewModel

/// The table of states in docs/VIEWS.md: for every cell appearance and headline of the one
/// definition (`Appearance`), how each view shows it. Every column is read from the view's own
/// drawing, so the table cannot say one thing while a view does another: the LEDs' from
/// `FrameRenderer`, the terminal's from ``TerminalLook`` (its colour read back from the escapes
/// it writes), the page's from the lines of words its style sheet keeps beside its rules
/// (`look NAME: …`, `headline NAME: …` in web/board.css; a test holds each to a rule).
///
/// Pure: the style sheet's text comes in as an argument. `make docs` writes the two tables into
/// docs/VIEWS.md (``ReferenceBlock``).
enum StateTable {
    /// The two tables of docs/VIEWS.md, in Markdown: the cells', and the board's as a whole.
    static func markdown(pageStyles: String, timings: GameTimings = GameTimings()) -> (cells: String, headlines: String) {
        let page = pageWords(pageStyles)
        return (cellTable(page: page, timings: timings), headlineTable(page: page, timings: timings))
    }

    /// The page's words for each name, from its style sheet's `look NAME: …` and
    /// `headline NAME: …` lines.
    static func pageWords(_ styles: String) -> [String: String] {
        var words: [String: String] = [:]
        for line in styles.split(separator: "\n") {
            let text = line.drop(while: \.isWhitespace)
            for kind in ["look ", "headline "] where text.hasPrefix(kind) {
                guard let colon = text.firstIndex(of: ":") else { continue }
                let name = text[text.index(text.startIndex, offsetBy: kind.count)..<colon]
                var said = text[text.index(after: colon)...].drop(while: \.isWhitespace)
                if said.hasSuffix("*/") { said = said.dropLast(2) }
                while said.last?.isWhitespace == true { said = said.dropLast() }
                words[kind + name] = String(said)
            }
        }
        return words
    }

    private static func cellTable(page: [String: String], timings: GameTimings) -> String {
        var rows = [
            "| cell | meaning | LEDs | LEDs, without colour | terminal, without colour | terminal colour | page |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for appearance in CellAppearance.allCases {
            let light = FrameRenderer.light(of: appearance)
            let cells = [
                "`\(appearance.name)`", appearance.words,
                light?.words(timings: timings) ?? "dark", light?.wordsWithoutColour(timings: timings) ?? "dark",
                "`\(TerminalLook.text(of: appearance))`", colourWords(TerminalLook.styled(appearance)),
                page["look \(appearance.name)"] ?? "—",
            ]
            rows.append("| " + cells.joined(separator: " | ") + " |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    private static func headlineTable(page: [String: String], timings: GameTimings) -> String {
        var rows = [
            "| headline | status LEDs (X's side, O's side) | matrix | terminal | page |",
            "| --- | --- | --- | --- | --- |",
        ]
        var seen: Set<String> = []
        for headline in Headline.examples where seen.insert(headline.name).inserted {
            let lights = FrameRenderer.statusLights(of: headline)
            let status = FrameRenderer.isDark(headline)
                ? "dark" : "X: \(lights.x?.words(timings: timings) ?? "dark"); O: \(lights.o?.words(timings: timings) ?? "dark")"
            let matrix = FrameRenderer.isDark(headline) ? "dark" : headline.matrixWords
            let cells = [
                "`\(headline.name)`", status, matrix,
                TerminalLook.words(for: headline, players: PlayerNames().facing(headline == .thinking ? .computer(.perfect) : .person)), page["headline \(headline.name)"] ?? "—",
            ]
            rows.append("| " + cells.joined(separator: " | ") + " |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// The SGR attributes of `styled` text in words: "bold red", "faint green", "faint".
    static func colourWords(_ styled: String) -> String {
        let names = ["1": "bold", "2": "faint", "22": "normal weight", "31": "red", "32": "green", "33": "amber (yellow)"]
        var words: [String] = []
        for sequence in styled.split(separator: "\u{1B}") where sequence.hasPrefix("[") {
            guard let end = sequence.firstIndex(where: \.isLetter), sequence[end] == "m" else { continue }
            for code in sequence.dropFirst()[..<end].split(separator: ";") {
                if let name = names[String(code)], !words.contains(name) { words.append(name) }
            }
        }
        return words.isEmpty ? "none" : words.joined(separator: " ")
    }
}

extension Headline {
    /// What the matrix shows under this headline, in words.
    fileprivate var matrixWords: String {
        switch self {
        case .choosingOpponent: "the choice, as offered cells: an X and an O for two players; for the computer, as many O cells as its level; for the learner, O on the corners and the centre"
        default: "the cells' looks"
        }
    }
}
