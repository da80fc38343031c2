import Matchboxes
import TicTacToe

/// What a session state shows, in the words every view draws from: the LEDs
/// (``FrameRenderer``), the terminal (`BoardRenderer`) and the page (the `looks` and
/// `headline` of the board's API). The one definition of what each state looks like; each view
/// only chooses how to draw each appearance in its own medium, and docs/VIEWS.md lists them all
/// (`StateTable`, tested against it).
///
/// Pure: a function of the state, nothing else.
public struct Appearance: Sendable, Hashable {
    /// The nine cells, in reading order.
    public var cells: [CellAppearance]
    /// What the board says as a whole: whose turn, how it ended, asleep, the choice of opponent.
    public var headline: Headline

    public init(cells: [CellAppearance], headline: Headline) {
        self.cells = cells
        self.headline = headline
    }

    /// What `state` shows. Asleep, the cells keep their appearance (a view that stays lit, the
    /// page, still shows the game) and the headline says so (the LEDs go dark).
    public init(_ state: SessionState) {
        if state.showsOpponent && !state.isAsleep {
            self.init(cells: Self.offering(state.opponent), headline: .choosingOpponent(state.opponent))
            return
        }
        let beads = Self.beadLevels(of: state)
        self.init(cells: Position.all.map { Self.cell($0, of: state, beads: beads) }, headline: Headline(state))
    }

    /// The learner's box as each cell shows it, while it is shown (``cell(_:of:beads:)``).
    public static func beadLevels(of state: SessionState) -> [BeadLevel?]? {
        state.showsLearnersBox ? BeadLevel.levels(of: state.learner.beads(on: state.board)) : nil
    }

    /// What one cell of `state` shows, the choice of opponent aside (``init(_:)`` for all
    /// nine): a view that draws cell by cell (the LEDs, on every state) asks here and makes no
    /// array. `beads` is ``beadLevels(of:)``.
    public static func cell(_ position: Position, of state: SessionState, beads: [BeadLevel?]?) -> CellAppearance {
        let board = state.board
        if state.flashing == position { return .refused(board[position]) }
        if let level = beads?[position.index] { return .beads(level) }
        guard let owner = board[position] else { return .empty }
        // Waiting for the other board, the marks stand still: the status LED of the board waited
        // for blinks, and a blinking line beside it would read as that board's win.
        if state.awaitsOtherBoard { return .mark(owner) }
        switch board.outcome {
        case .inProgress: return .mark(owner)
        case .won(_, let lines): return lines.contains(position) ? .winning(owner) : .mark(owner)
        case .draw: return .drawn(owner)
        }
    }

    /// The choice of opponent, for a moment after it is made: one cell of each player for two
    /// players; for the computer, as many of O's cells as its level, in reading order; for the
    /// learner, O's cells on the corners and the centre (five, as no level has); for another
    /// board, its mark across the middle row.
    public static func offering(_ opponent: Opponent) -> [CellAppearance] {
        var cells = [CellAppearance](repeating: .empty, count: 9)
        switch opponent {
        case .person:
            cells[0] = .offered(.x)
            cells[2] = .offered(.o)
        case .computer(let level):
            for index in 0..<level.rawValue { cells[index] = .offered(.o) }
        case .learner:
            for index in [0, 2, 4, 6, 8] { cells[index] = .offered(.o) }
        case .board(let remote):
            for index in 3...5 { cells[index] = .offered(remote.side) }
        }
        return cells
    }
}

/// What one cell shows.
public enum CellAppearance: Sendable, Hashable, CaseIterable {
    case empty
    /// A player's mark, in a game in progress or off the winning lines of a won one.
    case mark(Player)
    /// A mark on a line the winner completed.
    case winning(Player)
    /// A mark of a drawn game.
    case drawn(Player)
    /// A refused press, for ``GameTimings/illegalFlash``: on an empty cell (`nil`, in the
    /// computer's turn) or on a mark.
    case refused(Player?)
    /// A cell standing for a player in the choice of opponent.
    case offered(Player)
    /// A free cell while the learner thinks: how many of the beads in its box stand for a move
    /// there, next to the most any move has.
    case beads(BeadLevel)

    public static let allCases: [CellAppearance] = {
        // In steps [6.0.3: type-check-steps]: Swift 6.0's type checker gives up on the sum as one expression.
        var cases: [CellAppearance] = [.empty]
        cases += Player.allCases.map(Self.mark)
        cases += Player.allCases.map(Self.winning)
        cases += Player.allCases.map(Self.drawn)
        cases += [.refused(nil)] + Player.allCases.map(Self.refused)
        cases += Player.allCases.map(Self.offered)
        cases += BeadLevel.allCases.map(Self.beads)
        return cases
    }()

    /// The appearance's name in the board's API and the page's class: "empty", "x", "o-winning",
    /// "refused-empty", "refused-x", "x-offered", "beads-few", …
    public var name: String {
        switch self {
        case .empty: "empty"
        case .mark(let player): player.rawValue.lowercased()
        case .winning(let player): "\(player.rawValue.lowercased())-winning"
        case .drawn(let player): "\(player.rawValue.lowercased())-drawn"
        case .refused(nil): "refused-empty"
        case .refused(let player?): "refused-\(player.rawValue.lowercased())"
        case .offered(let player): "\(player.rawValue.lowercased())-offered"
        case .beads(let level): "beads-\(level.rawValue)"
        }
    }

    /// The mark in the cell, if any (a refused press on a mark keeps it).
    public var mark: Player? {
        switch self {
        case .empty, .refused(nil), .beads: nil
        case .mark(let player), .winning(let player), .drawn(let player), .refused(let player?), .offered(let player): player
        }
    }

    /// In a sentence: "empty", "X", "X, on the winning line", "a refused press on X", …
    public var words: String {
        switch self {
        case .empty: "empty"
        case .mark(let player): player.rawValue
        case .winning(let player): "\(player.rawValue), on the winning line"
        case .drawn(let player): "\(player.rawValue), in a drawn game"
        case .refused(nil): "a refused press on an empty cell"
        case .refused(let player?): "a refused press on \(player.rawValue)"
        case .offered(let player): "\(player.rawValue), in the choice of opponent"
        case .beads(let level): "empty, \(level.words) of the learner's beads"
        }
    }
}

/// How many beads the learner's box holds for one move, next to the move with the most: the
/// three steps its box is shown in (the LEDs have three brightnesses; a person tells about as
/// many apart at a glance). A move with no bead left is not a level: its cell stays empty.
public enum BeadLevel: String, Sendable, Hashable, CaseIterable {
    /// More than none, up to a third of the most.
    case few
    /// More than a third of the most, up to two thirds.
    case some
    /// More than two thirds of the most: the moves it likes best.
    case most

    /// The level of `beads` in a box whose best move has `most`; `nil` for none.
    public init?(_ beads: Int, of most: Int) {
        guard beads > 0, most > 0 else { return nil }
        // Thirds compared in whole numbers: 3 × beads against most and 2 × most.
        self = beads * 3 > most * 2 ? .most : beads * 3 > most ? .some : .few
    }

    /// Each cell's level for a box's beads in reading order (``MatchboxLearner/beads(on:)``).
    public static func levels(of beads: [Int]) -> [BeadLevel?] {
        let most = beads.max() ?? 0
        return beads.map { BeadLevel($0, of: most) }
    }

    /// "few", "some", "the most".
    public var words: String { self == .most ? "the most" : rawValue }
}

/// What the board says as a whole.
public enum Headline: Sendable, Hashable {
    /// A person's turn: X's, or O's against a second player.
    case toMove(Player)
    /// O's turn against the computer: its move comes after ``GameTimings/computerThinking``.
    case thinking
    case won(Player)
    case draw
    /// The lights went dark after ``GameTimings/idleSleep``; a press wakes them.
    case asleep
    /// The opponent was just chosen: the cells show who, for ``GameTimings/opponentShown``.
    case choosingOpponent(Opponent)
    /// A remote view (`tictactoe watch`, the page) cannot reach the board. The board itself
    /// never is in this state; its lights are dark when its service is not running.
    case unreachable
    /// Another board plays `Player`'s mark and is not heard playing this game
    /// (``SessionState/awaitsOtherBoard``): the game waits for it.
    case waitingForBoard(Player)

    /// The headline of `state` (the choice of opponent aside: ``Appearance/init(_:)``).
    public init(_ state: SessionState) {
        if state.isAsleep {
            self = .asleep
            return
        }
        if state.awaitsOtherBoard, let other = state.opponent.remote {
            self = .waitingForBoard(other.side)
            return
        }
        switch state.board.outcome {
        case .inProgress(let next): self = state.awaitsComputer ? .thinking : .toMove(next)
        case .won(let winner, _): self = .won(winner)
        case .draw: self = .draw
        }
    }

    /// One of each kind, for the table of states (one opponent stands for the choice).
    public static let examples: [Headline] = {
        // In steps [6.0.3: type-check-steps]: as one sum, Swift 6.0.3 takes over a second to type-check it.
        var examples: [Headline] = Player.allCases.map(Self.toMove)
        examples.append(.thinking)
        examples += Player.allCases.map(Self.won)
        examples += [.draw, .asleep]
        examples += Opponent.allCases.map(Self.choosingOpponent)
        examples += exampleBoards.map { .choosingOpponent(.board($0)) }
        examples.append(.unreachable)
        examples += Player.allCases.map(Self.waitingForBoard)
        return examples
    }()

    /// Two other boards, one playing each mark, for the table's choice of another board.
    public static let exampleBoards = [RemoteBoard(name: "kitchen", side: .o), RemoteBoard(name: "attic", side: .x)].compactMap { $0 }

    /// The headline's name in the board's API: "x-to-move", "o-thinking", "x-wins", "draw",
    /// "asleep", "choosing-opponent", "unreachable", "waiting-for-o".
    public var name: String {
        switch self {
        case .toMove(let player): "\(player.rawValue.lowercased())-to-move"
        case .thinking: "o-thinking"
        case .won(let player): "\(player.rawValue.lowercased())-wins"
        case .draw: "draw"
        case .asleep: "asleep"
        case .choosingOpponent: "choosing-opponent"
        case .unreachable: "unreachable"
        case .waitingForBoard(let player): "waiting-for-\(player.rawValue.lowercased())"
        }
    }
}
