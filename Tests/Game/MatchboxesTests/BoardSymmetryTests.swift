import Testing
import TicTacToe
@testable import Matchboxes

@Suite("The board's eight symmetries and the learner's boxes")
struct BoardSymmetryTests {
    /// The eight lines of three, as sets of reading-order indices.
    static let lines: Set<Set<Int>> = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]

    @Test("eight different symmetries, each with its inverse, closed under composition, each mapping lines to lines")
    func group() {
        let all = BoardSymmetry.all
        #expect(Set(all).count == 8)
        for symmetry in all {
            #expect(symmetry.then(symmetry.inverse) == all[0])
            #expect(Set(Self.lines.map { Set($0.map { symmetry.image[$0] }) }) == Self.lines)
            for other in all { #expect(all.contains(symmetry.then(other))) }
        }
        #expect(all[0].image == Array(0..<9))
        #expect(all[1].image == [2, 5, 8, 1, 4, 7, 0, 3, 6])  // a quarter turn clockwise: the top left goes top right
    }

    @Test("a position and its seven images share one key, and the symmetry found turns each into the key's position")
    func filing() throws {
        let board = try Board(starter: .x).playing([Position.all[0], Position.all[1], Position.all[5]])
        let (key, turning) = BoxKey.filing(board)
        for symmetry in BoardSymmetry.all {
            var image = Board(starter: .x)
            for index in [0, 1, 5] { image = try image.playing(symmetry.apply(to: Position.all[index])) }
            let filed = BoxKey.filing(image)
            #expect(filed.key == key)
            for position in Position.all {
                let mark = image[position]
                let inKey: Player? = key.xMarks & 1 << filed.turning.image[position.index] != 0 ? .x
                    : key.oMarks & 1 << filed.turning.image[position.index] != 0 ? .o : nil
                #expect(mark == inKey)
            }
        }
        #expect(BoxKey(packed: key.packed) == key)
        #expect(BoxKey(packed: 1 | 1 << 9) == nil, "a cell with both marks")
        #expect(BoxKey(packed: 1 << 18) == nil, "a tenth cell")
        #expect(turning.apply(to: Position.all[0]).index == 0 || key.xMarks & 1 << turning.image[0] != 0)
    }

    @Test("the empty board's box has three kinds of move, as Michie's did: a corner, an edge and the centre")
    func firstBox() {
        let (key, _) = BoxKey.filing(Board(starter: .o))
        #expect(Matchbox.kinds(of: key) == [0, 1, 4])
        #expect(MatchboxLearner().box(for: key).beads == [4, 4, 0, 0, 4, 0, 0, 0, 0])
    }

    /// An independent count: every game played out on a grid of characters, each position the
    /// learner chooses in named by the smallest of its eight images' spellings, the images made
    /// by turning and mirroring the grid itself.
    static func countedOnGrids(learnerMovesFirst: Bool) -> Int {
        func images(_ grid: [Character]) -> [String] {
            var shapes: [[Character]] = []
            var turned = grid
            for _ in 0..<4 {
                shapes.append(turned)
                shapes.append((0..<3).flatMap { row in (0..<3).reversed().map { turned[row * 3 + $0] } })
                turned = (0..<3).flatMap { row in (0..<3).map { column in turned[(2 - column) * 3 + row] } }
            }
            return shapes.map { String($0) }
        }
        func won(_ grid: [Character]) -> Bool {
            lines.contains { line in let marks = line.map { grid[$0] }; return marks[0] != "." && Set(marks).count == 1 }
        }
        var names: Set<String> = [], seen: Set<String> = []
        func play(_ grid: [Character], mover: Character, learnerMoves: Bool) {
            guard seen.insert(String(grid)).inserted, !won(grid) else { return }
            let free = grid.indices.filter { grid[$0] == "." }
            if learnerMoves, free.count > 1, let name = images(grid).min() { names.insert(name) }
            for cell in free {
                var next = grid
                next[cell] = mover
                play(next, mover: mover == "X" ? "O" : "X", learnerMoves: !learnerMoves)
            }
        }
        play(Array(repeating: ".", count: 9), mover: "X", learnerMoves: learnerMovesFirst)
        return names.count
    }

    @Test("the boxes: 304 for the learner that moves first (Michie's count), the same as counted on grids; 289 for the second mover")
    func boxCount() {
        let first = PositionsFaced.keys(learner: .o, starter: .o).count
        let second = PositionsFaced.keys(learner: .o, starter: .x).count
        #expect(first == 304)
        #expect(second == 289)
        #expect(first == Self.countedOnGrids(learnerMovesFirst: true))
        #expect(second == Self.countedOnGrids(learnerMovesFirst: false))
        #expect(PositionsFaced.keys(learner: .o).count == first + second, "a position's mark counts say who started")
        #expect(PositionsFaced.keys(learner: .x, starter: .x).count == first)
    }
}
