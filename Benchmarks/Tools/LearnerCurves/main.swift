import Foundation
import LearnerRuns
import Matchboxes
import TicTacToe

// How the matchbox learner learns, Michie's rules beside the board's (quick), measured in
// simulation over many seeds, with the learner first and second: run by `make bench`, which
// writes the plots into docs/images/learning/ and the figures into Benchmarks/results/learner.json,
// from which `make docs` writes docs/BENCHMARKS.md's tables.
// Every game is seeded, so the same build writes the same figures and files.
//
//   LearnerCurves FOLDER [RESULTS]    the figures on standard output and into RESULTS (JSON,
//                                     with $BENCH_CONTEXT as its "measured"), the plots into FOLDER

let seeds: [UInt64] = Array(1...200)
let folder = CommandLine.arguments.dropFirst().first ?? "."
let resultsFile = CommandLine.arguments.dropFirst(2).first
/// The rules side by side: Michie's, and the board's.
let compared: [(name: String, rules: LearnerRules)] = [("michie", .michie), ("quick", .quick)]
let games = 1000
let late = LearnerRuns.late, unbeaten = LearnerRuns.unbeaten
typealias Side = LearnerRuns.Side

func number(_ value: Double) -> String { String(format: "%.6g", value) }

// MARK: The figures

/// One figure of the learning table, for both rules: over the seeds, the mean, the median and
/// the 90th percentile.
struct Comparison {
    var side: Side
    var against: ComputerLevel
    /// `games` (games until `unbeaten` not lost in a row) or `lost` (the share lost in `late`).
    var figure: String
    var values: [String: [Double]]

    var json: String {
        let each = compared.map { rules in
            let values = self.values[rules.name] ?? []
            return "\"\(rules.name)\": {\"mean\": \(number(LearnerRuns.mean(values))), \"median\": \(number(LearnerRuns.percentile(values, 0.5))), \"p90\": \(number(LearnerRuns.percentile(values, 0.9)))}"
        }
        return "{\"side\": \"\(side.rawValue)\", \"against\": \(against.rawValue), \"figure\": \"\(figure)\", " + each.joined(separator: ", ") + "}"
    }
}

var comparisons: [Comparison] = []
/// The runs the plots draw: by rules' name, side and level.
var curves: [String: [[LearnerResult]]] = [:]
for side in Side.allCases {
    for level in [ComputerLevel.perfect, .random] {
        var held: [String: [Double]] = [:], lost: [String: [Double]] = [:]
        for rules in compared {
            let runs = LearnerRuns.everySeed(seeds, rules.rules, against: level, starter: side.starter, games: games)
            curves["\(rules.name) \(side.rawValue) \(level.rawValue)"] = runs
            held[rules.name] = runs.map { Double(LearnerRuns.firstRun(in: $0)) }
            lost[rules.name] = runs.map { LearnerRuns.share(of: .lost, in: $0, games: late) }
        }
        if level == .perfect { comparisons.append(Comparison(side: side, against: level, figure: "games", values: held)) }
        comparisons.append(Comparison(side: side, against: level, figure: "lost", values: lost))
    }
}
/// The board's rules against each level, starters taking turns: games won, drawn and lost late.
let levels = ComputerLevel.allCases.map { level -> (ComputerLevel, [[LearnerResult]]) in
    (level, LearnerRuns.everySeed(seeds, .quick, against: level, starter: nil, games: games))
}

print("Matchbox learner, \(seeds.count) seeds, \(games) games each (median · p90 of games, mean share lost)")
for comparison in comparisons {
    let cells = compared.map { rules -> String in
        let values = comparison.values[rules.name] ?? []
        return comparison.figure == "games"
            ? "\(rules.name) \(Int(LearnerRuns.percentile(values, 0.5))) · \(Int(LearnerRuns.percentile(values, 0.9)))"
            : "\(rules.name) \(String(format: "%.1f %%", LearnerRuns.mean(values) * 100))"
    }
    print("\(comparison.side.rawValue) player, level \(comparison.against.rawValue), \(comparison.figure): " + cells.joined(separator: ", "))
}
let levelRows = levels.map { level, runs -> String in
    let shares = LearnerResult.allCases.map { result in LearnerRuns.mean(runs.map { LearnerRuns.share(of: result, in: $0, games: late) }) }
    return "{\"level\": \(level.rawValue), \"won\": \(number(shares[0])), \"drew\": \(number(shares[1])), \"lost\": \(number(shares[2]))}"
}
if let resultsFile {
    let context = ProcessInfo.processInfo.environment["BENCH_CONTEXT"] ?? "null"
    let json = "{\n  \"measured\": \(context),\n  \"seeds\": \(seeds.count),\n  \"games\": \(games),\n  \"unbeaten\": \(unbeaten),\n"
        + "  \"late\": [\(late.lowerBound), \(late.upperBound)],\n  \"comparisons\": [\n    "
        + comparisons.map(\.json).joined(separator: ",\n    ") + "\n  ],\n  \"levels\": [\n    " + levelRows.joined(separator: ",\n    ") + "\n  ]\n}\n"
    try Data(json.utf8).write(to: URL(fileURLWithPath: resultsFile))
    print("results: \(resultsFile)")
}

// MARK: The plots

/// One plot: for each curve, the share of games lost in each group of `group` games, over all
/// the seeds (the rate the table gives), as a line.
func plot(title: String, curves: [(name: String, results: [[LearnerResult]])], games: Int, group: Int) -> String {
    let width = 640.0, height = 320.0, left = 56.0, right = 28.0, top = 36.0, bottom = 44.0
    let plotWidth = width - left - right, plotHeight = height - top - bottom
    func x(_ game: Int) -> Double { left + plotWidth * Double(game) / Double(games) }
    func y(_ share: Double) -> Double { top + plotHeight * (1 - share) }
    let dashes = ["", "6 3", "2 3", "8 3 2 3"]
    var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
    <title>\(title)</title>
    <rect width="100%" height="100%" fill="#fff"/>
    <text x="\(left)" y="20" font-size="14">\(title)</text>

    """
    for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
        svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(tick))\" y2=\"\(y(tick))\" stroke=\"#ccc\"/>"
        svg += "<text x=\"\(left - 6)\" y=\"\(y(tick) + 4)\" text-anchor=\"end\">\(Int(tick * 100)) %</text>\n"
    }
    for tick in stride(from: 0, through: games, by: games / 4) {
        svg += "<text x=\"\(x(tick))\" y=\"\(height - bottom + 16)\" text-anchor=\"middle\">\(tick)</text>\n"
    }
    svg += "<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 8)\" text-anchor=\"middle\">games played (share lost in each \(group), over \(seeds.count) seeds)</text>\n"
    for (index, curve) in curves.enumerated() {
        let groups = stride(from: 0, to: games, by: group).map { start in
            LearnerRuns.mean(curve.results.map { LearnerRuns.share(of: .lost, in: $0, games: (start + 1)...(start + group)) })
        }
        let line = groups.indices.map { "\(x($0 * group + group / 2)),\(y(groups[$0]))" }.joined(separator: " ")
        svg += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"\(dashes[index % dashes.count])\"/>\n"
        let legendY = top + 14 + Double(index) * 16
        svg += "<line x1=\"\(width - right - 150)\" x2=\"\(width - right - 120)\" y1=\"\(legendY - 4)\" y2=\"\(legendY - 4)\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"\(dashes[index % dashes.count])\"/>"
        svg += "<text x=\"\(width - right - 114)\" y=\"\(legendY)\">\(curve.name)</text>\n"
    }
    return svg + "</svg>\n"
}

try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
for level in [ComputerLevel.perfect, .random] {
    let plotted = compared.flatMap { rules in
        Side.allCases.map { side in ("\(rules.name), \(side.rawValue)", curves["\(rules.name) \(side.rawValue) \(level.rawValue)"] ?? []) }
    }
    let name = level == .perfect ? "against-perfect" : "against-random"
    let svg = plot(title: "Lost against \(level == .perfect ? "the perfect computer" : "the random player"), Michie's rules and the quick ones",
                   curves: plotted, games: games, group: 50)
    try Data(svg.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name).svg"))
}
let each = plot(title: "The learner's losses against each level of the computer (the board's rules)",
                curves: levels.map { ("level \($0.0.rawValue)", $0.1) }, games: games, group: 50)
try Data(each.utf8).write(to: URL(fileURLWithPath: folder + "/against-each-level.svg"))
print("plots: \(folder)/against-perfect.svg, \(folder)/against-random.svg, \(folder)/against-each-level.svg")

// MARK: Its boxes, drawn

/// Two positions' boxes side by side, fresh and after `games` games against the perfect
/// computer (seed 1): each free cell shows its beads as a number and a disc whose area grows
/// with them; a taken cell its mark.
func boxes(after games: Int) -> String {
    var trained = MatchboxLearner(rules: .quick)
    var computer = ComputerPlayer(level: .perfect, random: SeededRandom(seed: 1_000_003))
    var random = SeededRandom(seed: 1)
    for game in 0..<games { _ = TrainingGame.play(&trained, against: &computer, starter: game % 2 == 0 ? .x : .o, using: &random) }
    let positions: [(String, Board)] = [
        ("the empty board, the learner to start", Board(starter: .o)),
        ("X took the centre", (try? Board(starter: .x).playing(Position.all[4])) ?? Board(starter: .x)),
    ]
    let cell = 44.0, gap = 40.0, top = 56.0, side = 3 * cell
    let width = 4 * side + 4 * gap, height = top + side + 44
    var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
    <title>Two of the learner's boxes, fresh and after \(games) games against the perfect computer</title>
    <rect width="100%" height="100%" fill="#fff"/>

    """
    for (index, (name, board)) in positions.enumerated() {
        for (column, learner) in [MatchboxLearner(rules: .quick), trained].enumerated() {
            let left = gap / 2 + Double(index) * (2 * side + 2 * gap) + Double(column) * (side + gap / 2)
            let beads = learner.beads(on: board), most = max(1, beads.max() ?? 1)
            svg += "<text x=\"\(left)\" y=\"\(top - 8)\">\(column == 0 ? "fresh" : "after \(games) games")</text>\n"
            for position in Position.all {
                let x = left + Double(position.column) * cell, y = top + Double(position.row) * cell
                svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" fill=\"none\" stroke=\"#000\"/>"
                if let mark = board[position] {
                    svg += "<text x=\"\(x + cell / 2)\" y=\"\(y + cell / 2 + 6)\" text-anchor=\"middle\" font-size=\"18\">\(mark.rawValue)</text>\n"
                } else {
                    let count = beads[position.index], radius = (cell / 2 - 4) * (Double(count) / Double(most)).squareRoot()
                    svg += "<circle cx=\"\(x + cell / 2)\" cy=\"\(y + cell / 2)\" r=\"\(radius)\" fill=\"#888\"/>"
                    svg += "<text x=\"\(x + cell / 2)\" y=\"\(y + cell / 2 + 4)\" text-anchor=\"middle\">\(count)</text>\n"
                }
            }
        }
        svg += "<text x=\"\(gap / 2 + Double(index) * (2 * side + 2 * gap))\" y=\"20\" font-size=\"14\">\(name)</text>\n"
    }
    return svg + "<text x=\"\(gap / 2)\" y=\"\(height - 12)\">Beads behind each free cell (a disc's area grows with them); moves alike in the position share one count.</text>\n</svg>\n"
}

try Data(boxes(after: 5000).utf8).write(to: URL(fileURLWithPath: folder + "/boxes.svg"))
print("boxes: \(folder)/boxes.svg")
