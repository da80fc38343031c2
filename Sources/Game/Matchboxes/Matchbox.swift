/// One matchbox: the beads of each move the learner can make in one position (its ``BoxKey``).
///
/// Moves the position's own symmetries make alike share one compartment, as in Michie's boxes
/// (the empty board's box holds three kinds of bead: corner, edge and centre). Beads are kept by
/// the cell of the key's position that stands for its kind: the lowest index of the kind.
public struct Matchbox: Sendable, Hashable {
    /// Beads of each move, by the reading-order index of its cell in the key's position; zero for
    /// a taken cell and for a cell that is a lower one's like.
    public internal(set) var beads: [Int]

    /// A fresh box for `key`'s position, each kind of move with `each` beads.
    init(for key: BoxKey, each: Int) {
        beads = Array(repeating: 0, count: 9)
        for cell in Self.kinds(of: key) { beads[cell] = each }
    }

    /// A box with these beads, for a file read back: `nil` unless every bead lies on a cell
    /// that stands for a kind of move in `key`'s position, no count is negative, and the counts
    /// are nine.
    public init?(for key: BoxKey, beads: [Int]) {
        let kinds = Set(Self.kinds(of: key))
        guard beads.count == 9, beads.allSatisfy({ $0 >= 0 }),
              beads.indices.allSatisfy({ beads[$0] == 0 || kinds.contains($0) }) else { return nil }
        self.beads = beads
    }

    /// All beads in the box.
    public var total: Int { beads.reduce(0, +) }

    /// The cells that stand for a kind of move in `key`'s position: each free cell that no
    /// symmetry of the position maps to a lower free cell.
    static func kinds(of key: BoxKey) -> [Int] {
        let own = key.ownSymmetries
        return (0..<9).filter { cell in
            key.freeCells & 1 << cell != 0 && own.allSatisfy { $0.image[cell] >= cell }
        }
    }

    /// Every move's beads halved, rounded up: a move that had beads keeps at least one.
    mutating func halve() {
        beads = beads.map { ($0 + 1) / 2 }
    }

    /// The cell whose compartment holds the `bead`-th bead (counting from zero, in reading order).
    func cell(holding bead: Int) -> Int? {
        var left = bead
        for (cell, count) in beads.enumerated() where count > 0 {
            if left < count { return cell }
            left -= count
        }
        return nil
    }
}
