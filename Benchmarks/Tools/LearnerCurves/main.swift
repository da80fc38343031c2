import Foundation
import Matchboxes
import TicTacToe

// How the matchbox learner learns, measured in simulation over many seeds: run by `make bench`,
// which writes the plots into docs/images/learning/ and the figures into
// Benchmarks/results/learner.json, from which `make docs` writes docs/BENCHMARKS.md's table.
// Every game is seeded, so the same build writes the same figures and files.
//
//   LearnerCurves FOLDER [RESULTS]    the figures on standard output and into RESULTS (JSON,
//                                     with $BENCH_CONTEXT as its "measured"), the plots into FOLDER

let seeds: [UInt64] = Array(1...20)
let folder = CommandLine.arguments.dropFirst().first ?? "."
let resultsFile = CommandLine.arguments.dropFirst(2).first

/// A fresh learner's results, game by game, against the computer at `level`, starters taking
/// turns (X first), the learner's and the computer's draws seeded from `seed`.
func results(against level: ComputerLevel, games: Int, seed: UInt64) -> [LearnerResult] {
    var learner = MatchboxLearner()
    var computer = ComputerPlayer(level: level, random: SeededRandom(seed: seed &* 1_000_003))
    var random = SeededRandom(seed: seed)
    return (0..<games).map { game in
        TrainingGame.play(&learner, against: &computer, starter: game % 2 == 0 ? .x : .o, using: &random)
    }
}

/// The game (counting from 1) that ends the first run of `run` draws in a row, or nil.
func firstRun(of run: Int, in results: [LearnerResult]) -> Int? {
    var length = 0
    for (index, result) in results.enumerated() {
        length = result == .drew ? length + 1 : 0
        if length == run { return index + 1 }
    }
    return nil
}

/// The share (0–1) of `result` in games `range` (counting from 1).
func share(of result: LearnerResult, in results: [LearnerResult], games range: ClosedRange<Int>) -> Double {
    let slice = results[(range.lowerBound - 1)..<range.upperBound]
    return Double(slice.filter { $0 == result }.count) / Double(slice.count)
}

/// The median and the quartiles of `values`.
func quartiles(_ values: [Double]) -> (low: Double, median: Double, high: Double) {
    let sorted = values.sorted()
    func at(_ fraction: Double) -> Double {
        let position = fraction * Double(sorted.count - 1)
        let below = Int(position.rounded(.down)), above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
    }
    return (at(0.25), at(0.5), at(0.75))
}

func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
func spread(_ values: [Double], _ shown: (Double) -> String) -> String {
    let q = quartiles(values)
    return "\(shown(q.median)) (\(shown(q.low))–\(shown(q.high)))"
}

// MARK: The figures

/// One row of the table: a figure over the seeds, against one opponent.
struct Row {
    enum Figure {
        /// Games, over the seeds: the median, the quartiles and the range.
        case games([Double])
        /// Shares of games (0–1), over the seeds: the median, the quartiles and the range.
        case share([Double])
        /// The median share of games won, drawn and lost.
        case outcomes(won: Double, drew: Double, lost: Double)
    }

    var against: String
    var figure: String
    var values: Figure

    var markdown: String {
        switch values {
        case .games(let values):
            return "| \(against) | \(figure) | \(spread(values) { String(Int($0)) }) | \(Int(values.min() ?? 0))–\(Int(values.max() ?? 0)) |"
        case .share(let values):
            return "| \(against) | \(figure) | \(spread(values, percent)) | \(percent(values.min() ?? 0))–\(percent(values.max() ?? 0)) |"
        case .outcomes(let won, let drew, let lost):
            return "| \(against) | \(figure) | \([won, drew, lost].map(percent).joined(separator: " · ")) | |"
        }
    }

    var json: String {
        func number(_ value: Double) -> String { String(format: "%.6g", value) }
        func summary(_ values: [Double]) -> String {
            let q = quartiles(values)
            return "\"median\": \(number(q.median)), \"low\": \(number(q.low)), \"high\": \(number(q.high)), \"min\": \(number(values.min() ?? 0)), \"max\": \(number(values.max() ?? 0))"
        }
        let head = "\"against\": \"\(against)\", \"figure\": \"\(figure)\""
        switch values {
        case .games(let values): return "{\(head), \"kind\": \"games\", \(summary(values))}"
        case .share(let values): return "{\(head), \"kind\": \"share\", \(summary(values))}"
        case .outcomes(let won, let drew, let lost):
            return "{\(head), \"kind\": \"outcomes\", \"won\": \(number(won)), \"drew\": \(number(drew)), \"lost\": \(number(lost))}"
        }
    }
}

var rows: [Row] = []
let perfectGames = 20000
let againstPerfect = seeds.map { results(against: .perfect, games: perfectGames, seed: $0) }
let runs = againstPerfect.map { firstRun(of: 20, in: $0).map(Double.init) ?? Double(perfectGames) }
let lastLoss = againstPerfect.map { Double(($0.lastIndex(of: .lost) ?? -1) + 1) }
rows.append(Row(against: "level 4 (perfect)", figure: "games until 20 draws in a row", values: .games(runs)))
rows.append(Row(against: "level 4 (perfect)", figure: "its last loss in \(perfectGames) games, at game", values: .games(lastLoss)))
for range in [1...1000, 4001...5000, 9001...10000, 14001...15000, 19001...20000] {
    let losses = againstPerfect.map { share(of: .lost, in: $0, games: range) }
    rows.append(Row(against: "level 4 (perfect)", figure: "lost, games \(range.lowerBound)–\(range.upperBound)", values: .share(losses)))
}
let againstRandom = seeds.map { results(against: .random, games: 1000, seed: $0) }
for range in [1...100, 901...1000] {
    let losses = againstRandom.map { share(of: .lost, in: $0, games: range) }
    rows.append(Row(against: "level 1 (random)", figure: "lost, games \(range.lowerBound)–\(range.upperBound)", values: .share(losses)))
}
var curves: [(ComputerLevel, [[LearnerResult]])] = [(.random, againstRandom)]
for level in ComputerLevel.allCases {
    let played = level == .random ? againstRandom : level == .perfect ? againstPerfect.map { Array($0.prefix(1000)) }
        : seeds.map { results(against: level, games: 1000, seed: $0) }
    if level != .random { curves.append((level, played)) }
    let shares = LearnerResult.allCases.map { result in quartiles(played.map { share(of: result, in: $0, games: 901...1000) }).median }
    rows.append(Row(against: "level \(level.rawValue)", figure: "won · drew · lost, games 901–1000", values: .outcomes(won: shares[0], drew: shares[1], lost: shares[2])))
}
print("Matchbox learner, \(seeds.count) seeds (median, quartiles in brackets)")
print("| against | figure | median (quartiles) | range |")
print("| --- | --- | --- | --- |")
for row in rows { print(row.markdown) }
if let resultsFile {
    let context = ProcessInfo.processInfo.environment["BENCH_CONTEXT"] ?? "null"
    let json = "{\n  \"measured\": \(context),\n  \"seeds\": \(seeds.count),\n  \"rows\": [\n    "
        + rows.map(\.json).joined(separator: ",\n    ") + "\n  ]\n}\n"
    try Data(json.utf8).write(to: URL(fileURLWithPath: resultsFile))
    print("results: \(resultsFile)")
}

// MARK: The plots

/// One plot: for each curve, the median over seeds of the share of games lost in each group of
/// `group` games, as a line; the quartiles as a band around it.
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
    svg += "<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 8)\" text-anchor=\"middle\">games played (lost, per \(group) games: median of \(seeds.count) seeds, quartiles shaded)</text>\n"
    for (index, curve) in curves.enumerated() {
        let groups = stride(from: 0, to: games, by: group).map { start in
            quartiles(curve.results.map { share(of: .lost, in: $0, games: (start + 1)...(start + group)) })
        }
        let middle = groups.indices.map { x($0 * group + group / 2) }
        let band = zip(middle, groups).map { "\($0),\(y($1.high))" } + zip(middle, groups).reversed().map { "\($0),\(y($1.low))" }
        svg += "<polygon points=\"\(band.joined(separator: " "))\" fill=\"#000\" fill-opacity=\"0.08\"/>\n"
        let line = zip(middle, groups).map { "\($0),\(y($1.median))" }.joined(separator: " ")
        svg += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"\(dashes[index % dashes.count])\"/>\n"
        let legendY = top + 14 + Double(index) * 16
        svg += "<line x1=\"\(width - right - 150)\" x2=\"\(width - right - 120)\" y1=\"\(legendY - 4)\" y2=\"\(legendY - 4)\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"\(dashes[index % dashes.count])\"/>"
        svg += "<text x=\"\(width - right - 114)\" y=\"\(legendY)\">\(curve.name)</text>\n"
    }
    return svg + "</svg>\n"
}

try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let levels = plot(
    title: "The learner's losses against each level of the computer",
    curves: curves.map { ("level \($0.0.rawValue)", $0.1) }, games: 1000, group: 50)
try Data(levels.utf8).write(to: URL(fileURLWithPath: folder + "/against-each-level.svg"))
let perfect = plot(
    title: "The learner's losses against the perfect computer, \(perfectGames) games",
    curves: [("level 4", againstPerfect)], games: perfectGames, group: 500)
try Data(perfect.utf8).write(to: URL(fileURLWithPath: folder + "/against-perfect.svg"))
print("plots: \(folder)/against-each-level.svg, \(folder)/against-perfect.svg")

// MARK: Its boxes, drawn

/// Two positions' boxes side by side, fresh and after `games` games against the perfect
/// computer (seed 1): each free cell shows its beads as a number and a disc whose area grows
/// with them; a taken cell its mark.
func boxes(after games: Int) -> String {
    var trained = MatchboxLearner()
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
        for (column, learner) in [MatchboxLearner(), trained].enumerated() {
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
