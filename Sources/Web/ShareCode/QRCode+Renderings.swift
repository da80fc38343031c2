/// The code drawn for people's scanners: always dark modules on light, whatever the page's or
/// the terminal's theme (a scanner reads dark on light; many do not try the inverse), with the
/// quiet zone around.
extension QRCode {
    /// Modules a side with the quiet zone.
    public var framedSize: Int { size + 2 * Self.quietZone }

    /// Whether the module at `row`, `column` of the framed square (quiet zone included) is dark.
    public func isDarkFramed(row: Int, column: Int) -> Bool {
        isDark(row: row - Self.quietZone, column: column - Self.quietZone)
    }

    /// A standalone SVG: one module a unit of its `viewBox`, a white square and one black path
    /// drawing each row's runs of dark modules as rectangles one unit high (`M x y h n v1 h-n z`),
    /// with crisp edges, titled `title` (its accessible name; escaped). Its colours are its own: an
    /// `<img>` does not take the page's styles.
    public func svg(title: String) -> String {
        let side = framedSize
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" role="img">\
            <title>\(Self.escaped(title))</title>\
            <rect width="\(side)" height="\(side)" fill="#ffffff"/>\
            <path fill="#000000" d="\(pathData)"/></svg>

            """
    }

    /// The dark modules as runs, row by row, in the framed square's coordinates.
    var pathData: String {
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard modules[row * size + column] else {
                    column += 1
                    continue
                }
                var end = column + 1
                while end < size && modules[row * size + end] { end += 1 }
                let run = end - column
                path += "M\(column + Self.quietZone) \(row + Self.quietZone)h\(run)v1h-\(run)z"
                column = end
            }
        }
        return path
    }

    /// The code as terminal text, two modules a character (Unicode half blocks: `▀` dark above,
    /// `▄` dark below, `█` both, a space neither), the quiet zone included, one string a line.
    ///
    /// With `colours`, each line sets black on white first (256-colour SGR 16 and 231, pure black
    /// and pure white in xterm's table, not the theme's "white") and resets at its end, so a
    /// dark-background terminal shows dark on light too. Without (plain text: a pipe, a file, the
    /// journal) the glyphs are the dark modules: on a light background it scans as it is; on a
    /// dark one the code is inverted and only scanners that try the inverse read it.
    public func terminalLines(colours: Bool) -> [String] {
        let side = framedSize
        var lines: [String] = []
        for top in stride(from: 0, to: side, by: 2) {
            var line = colours ? Self.blackOnWhite : ""
            for column in 0..<side {
                let upper = isDarkFramed(row: top, column: column)
                // The last line's lower half is below the square: light, as a quiet zone is.
                let lower = top + 1 < side && isDarkFramed(row: top + 1, column: column)
                line += upper ? (lower ? "█" : "▀") : (lower ? "▄" : " ")
            }
            if colours { line += Self.reset }
            lines.append(line)
        }
        return lines
    }

    static let blackOnWhite = "\u{1B}[38;5;16;48;5;231m"
    static let reset = "\u{1B}[0m"

    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
