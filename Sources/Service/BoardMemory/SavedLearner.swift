import Matchboxes

/// The matchbox learner's memory as it is kept (the database's learner and boxes rows, and release 0.4's state file): each opened box by its position
/// (nine of "X", "O" and "." in reading order, as it is filed) with the beads of its nine cells,
/// how many boxes were refilled, and its record: the games since it was made and, for the last
/// tens of them, the games won, drawn and lost in each ten.
///
/// Read all or nothing: a box for a position the learner never faces, a position spelt other
/// than as it is filed, or beads where no move of its kind is, make the whole file invalid
/// (and set aside), never a learner made of the boxes that read.
struct SavedLearner: Codable, Equatable {
    var boxes: [String: [Int]]
    var refills: Int
    var games: Int
    /// Each ten as `[won, drew, lost]`, oldest first.
    var tens: [[Int]]
    /// ``MatchboxLearner/resets``. Not in release 0.4's file, which knew none: 0 read from it.
    var resets = 0

    private enum CodingKeys: String, CodingKey {
        case boxes, refills, games, tens
    }

    init(boxes: [String: [Int]], refills: Int, games: Int, tens: [[Int]], resets: Int = 0) {
        self.boxes = boxes
        self.refills = refills
        self.games = games
        self.tens = tens
        self.resets = resets
    }

    init(_ learner: MatchboxLearner) {
        boxes = Dictionary(uniqueKeysWithValues: learner.boxes.map { ($0.key.cells, $0.value.beads) })
        refills = learner.refills
        games = learner.record.games
        tens = learner.record.tens.map { [$0.won, $0.drew, $0.lost] }
        resets = learner.resets
    }

    /// The learner these boxes make, with Michie's rules, or why there is none.
    func learner(rules: LearnerRules = .michie) throws(StateFileProblem) -> MatchboxLearner {
        var opened: [BoxKey: Matchbox] = [:]
        for (cells, beads) in boxes {
            guard let key = BoxKey(cells: cells), key.isFiled, PositionsFaced.playingO.contains(key) else {
                throw .invalid("the learner's box \(cells.quoted()) is for no position the learner faces; a box is named by nine of X, O and . as the learner files it")
            }
            guard let box = Matchbox(for: key, beads: beads), beads.allSatisfy({ $0 <= rules.mostBeads }) else {
                throw .invalid("the learner's box \(cells.quoted()) holds \(beads); it must hold nine counts of 0 to \(rules.mostBeads), beads only on its moves")
            }
            opened[key] = box
        }
        guard (0...Int(Int32.max)).contains(refills) else {
            throw .invalid("the learner's refills are \(refills); they must be 0 to \(Int32.max)")
        }
        guard (0...Int(Int32.max)).contains(resets) else {
            throw .invalid("the learner's resets are \(resets); they must be 0 to \(Int32.max)")
        }
        let tallies = tens.compactMap { $0.count == 3 ? LearnerRecord.Tally(won: $0[0], drew: $0[1], lost: $0[2]) : nil }
        guard tallies.count == tens.count, let record = LearnerRecord(tens: tallies, games: games) else {
            throw .invalid("the learner's record (games \(games), \(tens.count) tens) is not one: each ten must be [won, drew, lost] of ten games but the last, which holds the games left over, as many tens as the games fill (at most \(LearnerRecord.keptTens))")
        }
        return MatchboxLearner(rules: rules, boxes: opened, refills: refills, record: record, resets: resets)
    }
}
