import BoardProtocol

extension BoardsDirectory {
    /// The list as `tictactoe boards` prints it: a heading, then one line per board by name, its
    /// marks as letters (readable without colour, as every view of the board is), e.g.
    ///
    ///     kitchen    online   X·O ·X· ···  O to move   two-players  X 2 · O 1 · draws 0
    public func lines(broker: String) -> [String] {
        let online = entries.values.filter { $0.online == true }.count
        let offline = entries.values.filter { $0.online == false }.count
        let unknown = entries.count - online - offline
        var heading = "\(entries.count) board\(entries.count == 1 ? "" : "s") on \(broker): \(online) online, \(offline) offline"
        if unknown > 0 { heading += ", \(unknown) unknown" }
        if lost > 0 { heading += "; \(lost) message\(lost == 1 ? "" : "s") lost for want of room: the list may be out of date" }
        if beyondLimit > 0 { heading += "; more than \(Self.largest): \(beyondLimit) message\(beyondLimit == 1 ? "" : "s") about the others not shown" }
        if ignored > 0 { heading += "; \(ignored) message\(ignored == 1 ? "" : "s") ignored (not a board's state or presence)" }
        let width = entries.keys.map(\.count).max() ?? 0
        return [heading] + entries.keys.sorted().map { name in
            let entry = entries[name] ?? Entry()
            let presence = entry.online.map { $0 ? "online " : "offline" } ?? "unknown"
            return "\(name.padding(width))  \(presence)  " + (entry.state.map(Self.text) ?? "(no state yet)")
        }
    }

    /// A state as one stretch of the line: the marks row by row, what it says, the pairing and
    /// its score.
    static func text(_ state: Summary) -> String {
        let marks = state.cells.map { $0.isEmpty ? "·" : $0 }
        let rows = stride(from: 0, to: 9, by: 3).map { marks[$0..<$0 + 3].joined() }.joined(separator: " ")
        let said = switch state.outcome {
        case "x-wins": "X won"
        case "o-wins": "O won"
        case "draw": "a draw"
        default: "\(state.turn ?? "?") to move"
        }
        let score = state.score.map { "X \($0.xWins) · O \($0.oWins) · draws \($0.draws)" } ?? ""
        return "\(rows)  \(said.padding(9))  \(state.opponent.padding(11))  \(score)".trimmingTrailingSpaces()
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
