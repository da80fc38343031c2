import Foundation
import LearnerRuns
import Matchboxes
import TicTacToe

// How the board's learner rules (LearnerRules.quick) were found: rules of Michie's own kind (the
// beads of a fresh box for each of its four moves, the beads a win, a draw and a loss add or
// take), measured against Michie's on the same seeds. Not part of make bench (it takes several
// minutes); docs/BENCHMARKS.md has what it printed.
//
//   swift run -c release LearnerRulesSearch       (from Benchmarks/)
//
// 1. Every count of fresh beads, draw and loss below, 40 seeds, the learner first and second
//    against the perfect computer: games until 20 in a row not lost (a win's beads play no part
//    there, for the perfect computer never loses).
// 2. The 30 best of those with each count of win beads, against the random player: the share
//    lost late.
// 3. The 10 best of those, Michie's and the board's, on 200 other seeds: both figures on both
//    sides.
// Each stage's seeds are its own, so a setting that was lucky in one stage is not chosen by the
// same luck in the next, and make bench's seeds (1–200) are none of them.

typealias Side = LearnerRuns.Side
let games = 1000
let freshBeads: [[Int]] = [
    [1, 1, 1, 1], [2, 1, 1, 1], [2, 2, 1, 1], [2, 2, 2, 2], [3, 2, 1, 1], [3, 3, 3, 3], [4, 3, 2, 1], [8, 4, 2, 1],
]
let draws = [1, 2, 3, 4, 5, 6, 8, 10]
let losses = [1, 2, 3, 4, 5, 6, 8, 10]
let wins = [0, 1, 2, 3]

func say(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
func median(_ values: [Double]) -> Double { LearnerRuns.percentile(values, 0.5) }

/// Median games until 20 in a row not lost against the perfect computer, first and second.
func held(_ rules: LearnerRules, seeds: [UInt64]) -> [Side: Double] {
    Dictionary(uniqueKeysWithValues: Side.allCases.map { side in
        let runs = LearnerRuns.everySeed(seeds, rules, against: .perfect, starter: side.starter, games: games)
        return (side, median(runs.map { Double(LearnerRuns.firstRun(in: $0)) }))
    })
}

/// The share lost late against the random player, over the seeds, first and second.
func lostLate(_ rules: LearnerRules, seeds: [UInt64]) -> [Side: Double] {
    Dictionary(uniqueKeysWithValues: Side.allCases.map { side in
        let runs = LearnerRuns.everySeed(seeds, rules, against: .random, starter: side.starter, games: games)
        return (side, LearnerRuns.mean(runs.map { LearnerRuns.share(of: .lost, in: $0, games: LearnerRuns.late) }))
    })
}

func name(_ rules: LearnerRules) -> String {
    "\(rules.initialBeads.map(String.init).joined(separator: "-")) beads, +\(rules.win) win, +\(rules.draw) draw, −\(rules.loss) loss"
}

/// How many times `baseline` on its worse side: what the search keeps smallest. (A baseline of
/// none would make any figure infinitely worse; none of Michie's is.)
func worse(_ figures: [Side: Double], than baseline: [Side: Double]) -> Double {
    Side.allCases.map { (figures[$0] ?? .infinity) / max(baseline[$0] ?? 1, 1e-9) }.max() ?? .infinity
}

// 1.
let firstSeeds = (1001...1040).map(UInt64.init)
let michieHeld = held(.michie, seeds: firstSeeds)
var candidates: [(rules: LearnerRules, held: [Side: Double])] = []
for beads in freshBeads {
    for draw in draws {
        for loss in losses {
            let rules = LearnerRules(initialBeads: beads, win: 1, draw: draw, loss: loss)
            candidates.append((rules, held(rules, seeds: firstSeeds)))
        }
    }
    say("stage 1: \(candidates.count) of \(freshBeads.count * draws.count * losses.count)")
}
candidates.sort { worse($0.held, than: michieHeld) < worse($1.held, than: michieHeld) }

// 2.
let secondSeeds = (2001...2040).map(UInt64.init)
let michieLost = lostLate(.michie, seeds: secondSeeds)
var withWins: [(rules: LearnerRules, score: Double)] = []
for candidate in candidates.prefix(30) {
    for win in wins {
        var rules = candidate.rules
        rules.win = win
        let lost = lostLate(rules, seeds: secondSeeds)
        // Held the perfect player sooner, and lost less to the random one, each on its worse side.
        withWins.append((rules, worse(candidate.held, than: michieHeld) + worse(lost, than: michieLost)))
    }
}
say("stage 2: \(withWins.count) settings against the random player")
withWins.sort { $0.score < $1.score }

// 3.
let lastSeeds = (3001...3200).map(UInt64.init)
// The board's own among them, for a choice made before is held to the same seeds.
let finalists = [LearnerRules.michie, .quick] + withWins.prefix(10).map(\.rules).filter { $0 != .quick }
print("| rules | games until 20 in a row not lost, first · second (median) | against it, × Michie's | lost late to the random player, first · second | × Michie's |")
print("| --- | --- | --- | --- | --- |")
var baseline: (held: [Side: Double], lost: [Side: Double])?
for rules in finalists {
    let figures = (held: held(rules, seeds: lastSeeds), lost: lostLate(rules, seeds: lastSeeds))
    let reference = baseline ?? figures
    if baseline == nil { baseline = figures }
    let ratios = { (mine: [Side: Double], theirs: [Side: Double]) in
        Side.allCases.map { String(format: "%.2f", (mine[$0] ?? 0) / max(theirs[$0] ?? 1, 1e-9)) }.joined(separator: " · ")
    }
    let heldText = Side.allCases.map { "\(Int(figures.held[$0] ?? 0))" }.joined(separator: " · ")
    let lostText = Side.allCases.map { String(format: "%.1f %%", (figures.lost[$0] ?? 0) * 100) }.joined(separator: " · ")
    print("| \(rules == .michie ? "Michie's: " : rules == .quick ? "quick: " : "")\(name(rules)) | \(heldText) | \(ratios(figures.held, reference.held)) | \(lostText) | \(ratios(figures.lost, reference.lost)) |")
}
