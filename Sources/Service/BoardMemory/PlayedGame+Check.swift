import Basics
import BoardAPI
import BoardProtocol
import ViewModel
import TicTacToe

extension PlayedGame {
    /// Why this is not a game the board could have recorded, in a phrase naming the field
    /// ("moves[2].cell is 5, which is taken"), or nil when it is: every field is what the
    /// recorder writes (names as the configuration allows them, times as ``WallTime`` writes
    /// them), and the moves replay from the carried-over marks, in turn, onto free cells, to the
    /// outcome it names and no further.
    public func problem() -> String? {
        guard Opponent(name: opponent) != nil else {
            return "opponent is \(opponent.quoted()); it must be one of \(Opponent.nameForms)"
        }
        for (field, name) in [("names.x", names.x), ("names.o", names.o)] {
            if let name, let problem = PlayerNames.problem(with: name) { return "\(field) is \(name.quoted()); it \(problem.dropLast())" }
        }
        guard let first = Player(rawValue: starter) else { return "starter is \(starter.quoted()); it must be \"X\" or \"O\"" }
        for (field, time) in [("started", started), ("finished", finished)] where !Self.isWallTime(time) {
            return "\(field) is \(time.quoted()); it must be a UTC time such as \"2026-11-23T22:41:05Z\""
        }
        switch startingBoard(first) {
        case .failure(let problem): return problem.text
        case .success(let board): return replayProblem(from: board)
        }
    }

    /// The board the record began on: empty, or the marks carried over.
    private func startingBoard(_ starter: Player) -> Result<Board, Problem> {
        guard let carriedOver else { return .success(Board(starter: starter)) }
        guard carriedOver.count == 9 else { return .failure(Problem("carriedOver has \(carriedOver.count) cells; a board has 9")) }
        var marks: [Player?] = []
        for (index, cell) in carriedOver.enumerated() {
            if cell.isEmpty { marks.append(nil) } else if let player = Player(rawValue: cell) { marks.append(player) } else {
                return .failure(Problem("carriedOver[\(index)] is \(cell.quoted()); it must be \"X\", \"O\" or \"\""))
            }
        }
        do {
            return .success(try Board(starter: starter, marks: marks))
        } catch {
            return .failure(Problem("carriedOver is no board a game reaches: \(error.description)"))
        }
    }

    /// Why the moves do not replay from `board`, in turn, onto free cells, to the outcome named.
    private func replayProblem(from start: Board) -> String? {
        var board = start
        guard !moves.isEmpty else { return "moves is empty; a finished game has at least one" }
        for (index, move) in moves.enumerated() {
            guard let position = Position(keypadKey: move.cell) else { return "moves[\(index)].cell is \(move.cell); it must be from 1 to 9" }
            guard Self.isWallTime(move.at) else { return "moves[\(index)].at is \(move.at.quoted()); it must be a UTC time such as \"2026-11-23T22:41:05Z\"" }
            guard let turn = board.turn else { return "moves[\(index)] comes after the game was over" }
            guard move.player == turn.rawValue else { return "moves[\(index)].player is \(move.player.quoted()); it was \(turn)'s turn" }
            do {
                board = try board.playing(position)
            } catch {
                return "moves[\(index)].cell is \(move.cell), which is taken"
            }
        }
        guard board.isOver else { return "the moves leave the game unfinished; outcome says \(outcome.quoted())" }
        let replayed = OutcomeName.of(board.outcome)
        guard outcome == replayed else { return "outcome is \(outcome.quoted()), but the moves end in \(replayed.quoted())" }
        return nil
    }

    /// A phrase naming the field at fault.
    private struct Problem: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// Whether `text` is a time as ``WallTime`` writes it: "2026-11-23T22:41:05Z".
    static func isWallTime(_ text: String) -> Bool { UTCText.isMoment(text) }
}
