import BoardProtocol

/// What happened between two of the board's states, as the link tells `tictactoe/<board>/events`:
/// a mark placed, a game won or drawn, a new game, another opponent. Worked out from the states
/// alone (the board's API sends no events of its own), so a link that joins late tells only what
/// it saw happen.
public enum BoardEvent: Sendable, Hashable {
    /// `player` ("X" or "O") took `cell` (its keypad number, as commands name cells); `number`:
    /// the move's number in the game, from 1.
    case move(player: String, cell: Int, number: Int)
    /// The game ended: "x-wins", "o-wins" or "draw".
    case gameOver(outcome: String)
    /// The marks were cleared: a new game, `starter` to move.
    case newGame(starter: String)
    /// Several moves of one player came in one step (the link had fallen behind): their order is
    /// not known, so none is told; the game now has `moves` marks, and the state says where.
    case caughtUp(moves: Int)
    case opponent(String)

    /// The events between `before` and `after`, in the order they happened; none without a
    /// state before. The board sends every change, but a client that falls behind is sent the
    /// latest state only (docs/API.md), so a step may hold several moves, or a new game and the
    /// moves after it: a move each, told alternately from whoever was to move (a move and the
    /// computer's reply), else ``caughtUp(moves:)``, which invents no order; a game whose marks
    /// went, or whose starter changed on an empty board, is a new game.
    public static func between(_ before: ViewState?, _ after: ViewState) -> [BoardEvent] {
        guard let before, before.cells.count == 9, after.cells.count == 9 else { return [] }
        var events: [BoardEvent] = []
        if after.opponent != before.opponent { events.append(.opponent(after.opponent)) }
        let cleared = (0..<9).contains { !before.cells[$0].isEmpty && after.cells[$0] != before.cells[$0] }
        let restarted = after.cells.allSatisfy(\.isEmpty) && (after.starter != before.starter || (before.outcome != "playing" && after.outcome == "playing"))
        let fresh = cleared || restarted
        if fresh { events.append(.newGame(starter: after.starter)) }
        let placed = (0..<9).filter { (fresh || before.cells[$0].isEmpty) && !after.cells[$0].isEmpty }
        let first = fresh ? after.starter : before.turn ?? after.starter
        let firsts = placed.filter { after.cells[$0] == first }, others = placed.filter { after.cells[$0] != first }
        let marks = after.cells.filter { !$0.isEmpty }.count
        if firsts.count > 1 || others.count > 1 || firsts.count < others.count {
            events.append(.caughtUp(moves: marks))
        } else {
            for (offset, index) in (firsts + others).enumerated() {
                events.append(.move(player: after.cells[index], cell: keypad(index), number: marks - placed.count + offset + 1))
            }
        }
        if (fresh || before.outcome == "playing") && after.outcome != "playing" { events.append(.gameOver(outcome: after.outcome)) }
        return events
    }

    /// Text from the board as a JSON string: encoded, not pasted in.
    private func quoted(_ text: String) -> String { BrokerRelay.encode(text) }

    /// The keypad number of the cell at `index` in reading order (7 8 9 on top).
    static func keypad(_ index: Int) -> Int { (2 - index / 3) * 3 + index % 3 + 1 }

    /// The event as the topic carries it: one JSON object, keys sorted.
    public var json: String {
        switch self {
        case .move(let player, let cell, let number): #"{"cell":\#(cell),"number":\#(number),"player":\#(quoted(player)),"type":"move"}"#
        case .gameOver(let outcome): #"{"outcome":\#(quoted(outcome)),"type":"game-over"}"#
        case .newGame(let starter): #"{"starter":\#(quoted(starter)),"type":"new-game"}"#
        case .opponent(let name): #"{"opponent":\#(quoted(name)),"type":"opponent"}"#
        case .caughtUp(let moves): #"{"moves":\#(moves),"type":"caught-up"}"#
        }
    }
}
