import Lights
import ViewModel
import TicTacToe
@testable import Console

/// What a person who sees no colour reads of the terminal: the text with every escape sequence
/// taken out (colour, weight, cursor moves, erasing, titles: all of them, so that nothing but
/// the characters on the screen is left), read back to the ``Appearance`` it shows.
///
/// A cell is read by its three characters against the terminal's column of the table of states
/// (`TerminalLook.text(of:)` for every `CellAppearance`), as a person reads the legend: a text
/// that stands for no appearance, or for more than one, is a misreading. The headline is read
/// by its line of words against every headline's, and the status LEDs by their discs and words,
/// which must be the lights of the headline read.
struct MonochromeTerminalEye {
    /// Something the eye could not read, and the text it was reading.
    struct Misread: Error, CustomStringConvertible {
        var what: String
        var text: String
        var description: String { "\(what): \(text.debugDescription)" }
    }

    var players: PlayerNames
    var marks: MarkStyle
    /// Each headline's words with these players, as the eye learnt them.
    private let headlines: [String: [Headline]]

    init(players: PlayerNames, marks: MarkStyle = .standard) {
        self.players = players
        self.marks = marks
        headlines = Dictionary(grouping: Headline.examples) { TerminalLook.words(for: $0, players: players) }
    }

    /// Each cell's text, as the eye learnt it from the table.
    private static let cells = Dictionary(grouping: CellAppearance.allCases, by: TerminalLook.text(of:))

    /// `text` as a terminal without colour shows it: every escape sequence removed (CSI, with
    /// the 8-bit CSI; OSC, DCS, SOS, PM and APC strings to their terminator; character-set
    /// designations; every other ESC pair), and carriage returns. What is left must hold no
    /// control character but the newline.
    static func strip(_ text: String) throws -> String {
        var text = text
        let (seen, control) = text.withUTF8 { bytes in
            var seen: [UInt8] = []
            seen.reserveCapacity(bytes.count)
            var control: UInt8?
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x1B: index = afterEscape(bytes, index)
                case 0xC2 where index < bytes.count && bytes[index] == 0x9B: index = afterControlSequence(bytes, index + 1)
                case 0x0D: continue
                // C0 but the newline, DEL, and C1 (U+0080–U+009F: 0xC2 then 0x80–0x9F in UTF-8).
                case 0x00...0x09, 0x0B...0x1F, 0x7F: control = byte
                case 0xC2 where index < bytes.count && (0x80...0x9F).contains(bytes[index]): control = bytes[index]
                default: seen.append(byte)
                }
            }
            return (seen, control)
        }
        let left = String(decoding: seen, as: UTF8.self)
        if let control { throw Misread(what: "a control character left after stripping: \(control)", text: left) }
        return left
    }

    /// Where the text goes on after the escape sequence whose ESC is just before `start`.
    private static func afterEscape(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "["): return afterControlSequence(bytes, start + 1)
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
            // A string, ended by BEL or by ST (ESC \).
            var index = start + 1
            while index < bytes.count {
                if bytes[index] == 0x07 { return index + 1 }
                if bytes[index] == 0x1B { return index + 2 }
                index += 1
            }
            return index
        case 0x20...0x2F: return start + 2  // a character set designation and its one final byte
        default: return start + 1
        }
    }

    /// Where the text goes on after a control sequence's parameters and intermediates and its
    /// final byte, 0x40–0x7E.
    private static func afterControlSequence(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var index = start
        while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
        return index + 1
    }

    /// A cell from its three characters.
    static func cell(_ text: some StringProtocol) throws -> CellAppearance {
        let matches = cells[String(text)] ?? []
        guard matches.count == 1, let only = matches.first else {
            throw Misread(what: matches.isEmpty ? "a cell that stands for nothing" : "a cell that stands for \(matches.map(\.name))", text: String(text))
        }
        return only
    }

    /// The headline from its line of words.
    func headline(_ line: some StringProtocol) throws -> Headline {
        let matches = headlines[String(line)] ?? []
        guard matches.count == 1, let only = matches.first else {
            throw Misread(what: matches.isEmpty ? "words that say no headline" : "words that say \(matches.map(\.name))", text: String(line))
        }
        return only
    }

    /// The simulator's or the watch's screen.
    func read(screen: String) throws -> Appearance {
        let lines = try Self.strip(screen).split(separator: "\n", omittingEmptySubsequences: false)
        guard let top = lines.firstIndex(where: { $0.hasPrefix("     ┌") }), lines.count > top + 10 else {
            throw Misread(what: "no grid", text: lines.joined(separator: "\n"))
        }
        var cells: [CellAppearance] = []
        for row in 0..<3 {
            let line = Array(lines[top + 1 + row * 2].unicodeScalars)
            guard line.count >= 18, Self.text(line[0..<6]) == "     │" else { throw Misread(what: "no row of cells", text: Self.text(line[...])) }
            for column in 0..<3 {
                let start = 6 + column * 4
                guard line[start + 3] == "│" else { throw Misread(what: "a cell wider than three", text: Self.text(line[...])) }
                cells.append(try Self.cell(Self.text(line[start..<start + 3])))
            }
        }
        let headline = try headline(lines[top + 10].dropFirst(2))
        try check(screenStatus: String(lines[top + 8].dropFirst(2)), for: headline)
        return Appearance(cells: cells, headline: headline)
    }

    /// Scalars as text: the eye reads a line by its scalars (every character it must tell apart
    /// is one), which is quicker than by characters.
    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }

    /// The plain text of scripts and `watch --once`.
    func read(plain: String) throws -> Appearance {
        let lines = try Self.strip(plain).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4 else { throw Misread(what: "fewer than four lines", text: plain) }
        var cells: [CellAppearance] = []
        for row in 0..<3 {
            let scalars = Array(lines[row].unicodeScalars)
            let line = scalars + Array(repeating: " ", count: max(0, 13 - scalars.count))
            guard Self.text(line[0..<2]) == "  ", line[5] == " ", line[9] == " " else { throw Misread(what: "no row of cells", text: String(lines[row])) }
            for column in 0..<3 { cells.append(try Self.cell(Self.text(line[(2 + column * 4)..<(5 + column * 4)]))) }
        }
        let headline = try headline(lines[3])
        let status = Self.text(Array(lines[1].unicodeScalars).dropFirst(13))
        guard status.hasPrefix("    ") else { throw Misread(what: "no status LEDs", text: String(lines[1])) }
        try check(plainStatus: String(status.dropFirst(4)), for: headline)
        return Appearance(cells: cells, headline: headline)
    }

    /// "● Alice (X)      ○ Bob (O) blinking": each disc's brightness and the pattern's word are
    /// those of `headline`'s status lights.
    private func check(screenStatus line: String, for headline: Headline) throws {
        let lights = FrameRenderer.statusLights(of: headline, marks: marks)
        let parts = line.split(separator: "      ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw Misread(what: "not two status LEDs", text: line) }
        for (part, (player, light)) in zip(parts, [(Player.x, lights.x), (Player.o, lights.o)]) {
            let disc: Character = light == nil ? "○" : light?.brightness == .dim ? "•" : "●"
            let pattern = light.map { Self.patternWord($0.pattern) } ?? ""
            guard part == "\(disc) \(players.label(for: player))\(pattern.isEmpty ? "" : " " + pattern)" else {
                throw Misread(what: "\(player)'s status LED unlike \(headline.name)'s", text: line)
            }
        }
    }

    /// "status LEDs: X on, O off", the lights of `headline` in words.
    private func check(plainStatus line: String, for headline: Headline) throws {
        let lights = FrameRenderer.statusLights(of: headline, marks: marks)
        func said(_ light: Light?) -> String {
            guard let light else { return "off" }
            let pattern = Self.patternWord(light.pattern)
            let level = light.brightness == .dim ? "dim" : "on"
            return pattern.isEmpty ? level : light.brightness == .dim ? "dim \(pattern)" : pattern
        }
        guard line == "status LEDs: X \(said(lights.x)), O \(said(lights.o))" else {
            throw Misread(what: "status LEDs unlike \(headline.name)'s", text: line)
        }
    }

    private static func patternWord(_ pattern: Light.Pattern) -> String {
        switch pattern {
        case .steady: ""
        case .blink: "blinking"
        case .flicker: "flickering"
        }
    }
}
