import BoardProtocol
import Foundation

/// docs/BENCHMARKS.md's measured tables, rendered from the results `make bench` committed
/// (``BenchResults``). Each figure beside the baseline measured in the same run, and the ratio.
struct BenchFigures {
    var instructions: BenchResults.Instructions?
    var gameLoop: BenchResults.GameLoop?
    var learnerResults: BenchResults.Learner?
    var webPage: BenchResults.WebPage?
    var network: BenchResults.Network?
    var budgets: [String: String]

    init(in repository: Repository) throws {
        instructions = try BenchResults.read(BenchResults.Instructions.self, "instructions.json", in: repository)
        gameLoop = try BenchResults.read(BenchResults.GameLoop.self, "game-loop.json", in: repository)
        learnerResults = try BenchResults.read(BenchResults.Learner.self, "learner.json", in: repository)
        webPage = try BenchResults.read(BenchResults.WebPage.self, "web-page.json", in: repository)
        network = try BenchResults.read(BenchResults.Network.self, "network.json", in: repository)
        budgets = try BenchResults.budgets(in: repository)
    }

    // MARK: The blocks

    /// Instructions and allocations of the hot path (callgrind), with their budgets.
    var pressCost: String {
        guard let results = instructions else { return Self.notMeasured("instructions.json", by: "scripts/bench-instructions.sh") }
        func count(_ kind: String) -> Int { results.instructions[kind] ?? 0 }
        let ratio = Double(count("full")) / Double(max(count("imperative"), 1))
        let rows: [[String]] = [
            ["(a′) a press, full stack, counting chip", Format.grouped(count("full")), budget("press")],
            ["(b′) the same press, imperative baseline", Format.grouped(count("imperative")), ""],
            ["(a′) / (b′): what the reactive plumbing costs", Format.ratio(ratio), budget("press-ratio", suffix: "×")],
            ["allocations per press, full stack", String(format: "%.2f", results.allocationsPerPress), budget("press-allocations")],
            ["a scan step, an X and an O lit, colour only", Format.grouped(count("scan")), budget("scan")],
            ["a scan step, an X and an O lit, O dim", Format.grouped(count("scan-dim")), ""],
            ["a move of the perfect computer, over every position in play", Format.grouped(count("move")), budget("move")],
            ["a second of a new game with O to start (nothing lit but O's dim status LED)", Format.grouped(count("o-to-start") * 1000), ""],
        ]
        return Self.measured(results.measured, "callgrind, \(Format.grouped(results.runs)) runs of each")
            + Format.table(["instructions", "counted", "budget"], rows, right: [1, 2])
    }

    /// package-benchmark's wall times, and the plain loop's, each against its baseline.
    var wallTime: String {
        var text = ""
        if let loop = gameLoop {
            text += Self.measured(loop.measured, "package-benchmark, release build, every benchmark in one process")
            text += Format.table(["benchmark", "p50", "p99", "allocations, p50 · most", "p50 against its baseline"], gameLoopRows(loop), right: [1, 2, 3, 4])
            if let dark = loop.benchmark("(d)")?.actions {
                text += "\n(d) A dark, asleep board ran \(Format.grouped(Int(dark.p50))) actions in a virtual minute (at most "
                    + "\(Format.grouped(Int(dark.max))) in any sample).\n"
            }
        } else {
            text += Self.notMeasured("game-loop.json", by: "scripts/bench-game-loop.sh")
        }
        guard let results = instructions else { return text }
        let wall = results.wallTimeNs
        func p50(_ kind: String) -> Double { wall[kind]?.p50 ?? 0 }
        func row(_ label: String, _ kind: String, against baseline: String?) -> [String] {
            let times = wall[kind]
            return [label, Format.nanoseconds(times?.p50), Format.nanoseconds(times?.p99),
                    baseline.map { Format.ratio(p50(kind) / max(p50($0), 1)) } ?? ""]
        }
        text += "\nThe same work in a plain loop (`PressCount`, no harness around it; the same run as the instructions above):\n\n"
        text += Format.table(["plain loop", "p50", "p99", "p50 against the baseline"], [
            row("(a′) a press, full stack, counting chip", "full", against: "imperative"),
            row("(b′) the same press, imperative baseline", "imperative", against: nil),
            row("a scan step, colour only", "scan", against: nil),
            row("a scan step, O dim", "scan-dim", against: "scan"),
            row("a move of the perfect computer", "move", against: nil),
        ], right: [1, 2, 3])
        return text
    }

    /// The game loop's cost with the API served, and a press through the socket.
    var apiCost: String {
        guard let results = instructions else { return Self.notMeasured("instructions.json", by: "scripts/bench-instructions.sh") }
        let alone = Double(results.instructions["served-0"] ?? 0)
        var counts = ["instructions on the game loop (callgrind)"], against = ["against none watching"], times = ["wall time on the loop, p50 · p99 (plain loop)"]
        for watchers in [0, 1, 32] {
            let count = results.instructions["served-\(watchers)"] ?? 0
            counts.append(Format.grouped(count))
            against.append(Format.ratio(Double(count) / max(alone, 1)))
            let wall = results.wallTimeNs["served-\(watchers)"]
            times.append("\(Format.nanoseconds(wall?.p50)) · \(Format.nanoseconds(wall?.p99))")
        }
        let latency = results.wallTimeNs["latency"]
        return Self.measured(results.measured, "\(Format.grouped(results.servedRuns)) presses each")
            + Format.table(["a press with the API served", "0 watching", "1 watching", "32 watching"], [counts, against, times], right: [1, 2, 3])
            + "\nA press sent on the socket until another client has read the state it caused (a real game-loop thread, "
            + "the matrix scanning in real time): p50 \(Format.nanoseconds(latency?.p50)), p90 \(Format.nanoseconds(latency?.p90)), "
            + "p99 \(Format.nanoseconds(latency?.p99)); the goal is p99 within 1 ms.\n"
    }

    /// The web view in Chromium, each figure against its baseline from the same run.
    var webView: String {
        guard let page = webPage else { return Self.notMeasured("web-page.json", by: "browser/bench_page.py") }
        func times(_ times: BenchResults.Times) -> String { "\(Format.milliseconds(times.p50)) · \(Format.milliseconds(times.p99))" }
        let rows: [[String]] = [
            ["page load to the first board drawn", times(page.pageLoad), "the page's `load` event: \(times(page.pageLoadBaseline))",
             Format.ratio(page.pageLoad.p50 / page.pageLoadBaseline.p50), "≤ 300 ms"],
            ["a click to the page showing the move, \(page.pages) pages open", times(page.clickToPage), "an API client's press to its state: \(times(page.apiPress))",
             Format.ratio(page.clickToPage.p50 / page.apiPress.p50), "p99 ≤ 50 ms"],
            ["a click to the LED lines showing it, \(page.pages) pages open", times(page.clickToLeds), "the same",
             Format.ratio(page.clickToLeds.p50 / page.apiPress.p50), "p99 ≤ 50 ms"],
            ["`\(page.largestFile.path)` (\(Format.grouped(page.largestFile.bytes)) B) on a kept-alive connection", "\(Format.milliseconds(page.largestFile.p50)) · \(Format.milliseconds(page.largestFile.p99))",
             "`\(page.smallestFile.path)` (\(Format.grouped(page.smallestFile.bytes)) B): \(Format.milliseconds(page.smallestFile.p50)) · \(Format.milliseconds(page.smallestFile.p99))",
             Format.ratio(page.largestFile.p50 / page.smallestFile.p50), ""],
        ]
        let memory = page.memoryMb
        return Self.measured(page.measured, "\(Format.grouped(page.presses)) presses")
            + Format.table(["figure", "p50 · p99", "baseline, p50 · p99", "ratio at p50", "goal"], rows, right: [])
            + "\nThe web view's resident memory: \(Format.megabytes(memory.idle)) idle, \(Format.megabytes(memory.pagesOpen)) with "
            + "\(page.pages) pages open, \(Format.megabytes(memory.afterPresses)) after the presses (goal: at most 40 MB).\n"
    }

    /// Two boards, one game: a press to the other board's LEDs against the broker's round trip.
    var twoBoards: String {
        guard let network else { return Self.notMeasured("network.json", by: "browser/bench_network.py") }
        func times(_ times: BenchResults.Times) -> String { "\(Format.shortTime(times.p50)) · \(Format.shortTime(times.p99))" }
        let across = network.pressToOtherLeds
        var rows: [[String]] = [
            ["a press on one board to the other board's LED lines showing it", times(across),
             "the broker's own round trip: \(times(network.brokerRoundTrip))", Format.ratio(across.p50 / max(network.brokerRoundTrip.p50, 0.001)),
             "p99 ≤ 100 ms"],
            ["the same", times(across), "the same press to its own board's LED lines: \(times(network.pressToOwnLeds))",
             Format.ratio(across.p50 / max(network.pressToOwnLeds.p50, 0.001)), ""],
        ]
        rows += Self.hundredBoardsRows(network)
        let hundredLine = network.hundredBoards.map {
            " With the \($0.boards) boards: \(Format.megabytes($0.linkMemoryMb)); messages its inbox had no room for: \(Format.grouped($0.dropped))."
                + ($0.boardsView.map { view in
                    " The web view, the boards view open: \(Format.megabytes(view.webMemoryMb)) (\(Format.megabytes(view.webMemoryBeforeMb)) before it was"
                        + " opened), \(Format.grouped(Int(view.webCpuUsPerList.rounded()))) µs of processor time for each list it sent."
                } ?? "")
        } ?? ""
        return Self.measured(network.measured, "\(Format.grouped(network.presses)) presses in \(network.games) games")
            + Format.table(["figure", "p50 · p99", "baseline, p50 · p99", "ratio at p50", "goal"], rows, right: [])
            + "\nEach link's resident memory after the games: \(network.linkMemoryMb.map(Format.megabytes).joined(separator: " and ")).\(hundredLine)\n"
    }

    /// The hundred boards' rows of the two-boards table: the link's time for their states, the
    /// page's boards view of them.
    private static func hundredBoardsRows(_ network: BenchResults.Network) -> [[String]] {
        var rows: [[String]] = []
        if let hundred = network.hundredBoards {
            rows.append([
                "a link's processor time for each state of \(hundred.boards) other boards (\(Format.grouped(hundred.states)) states, \(hundred.statesPerSecond) a second)",
                "\(Format.grouped(Int(hundred.linkCpuUsPerState.rounded()))) µs (mean)",
                "its time for each press of its own game: \(Format.grouped(Int(hundred.linkCpuUsPerPress.rounded()))) µs",
                Format.ratio(hundred.linkCpuUsPerState / max(hundred.linkCpuUsPerPress, 0.001)), "none dropped",
            ])
        }
        if let hundred = network.hundredBoards, let view = hundred.boardsView {
            // The link writes the list at most once a pace, the web view looks at it as often.
            let pace = BoardsList.interval / .milliseconds(1)
            rows.append([
                "the page's boards view of the \(view.boardsListed) boards (\(Format.grouped(view.listBytes)) B a list): lists a second sent to the page",
                "\(view.listsPerSecond)", "the states a second it shows: \(hundred.statesPerSecond)",
                Format.ratio(view.listsPerSecond / Double(max(hundred.statesPerSecond, 1))), "at most 4",
            ])
            rows.append([
                "the last of their states shown on the page, after it was published", "\(Format.grouped(Int(view.lastStateShownMs.rounded()))) ms",
                "the list's pace: \(Format.grouped(Int(pace.rounded()))) ms",
                Format.ratio(view.lastStateShownMs / pace), "≤ 2 paces",
            ])
        }
        return rows
    }

    /// How the matchbox learner learns, over seeded games: Michie's rules beside the board's,
    /// then the board's against each level.
    var learner: String {
        guard let results = learnerResults else { return Self.notMeasured("learner.json", by: "Benchmarks/Tools/LearnerCurves") }
        let late = results.late.count == 2 ? "\(results.late[0])–\(results.late[1])" : "?"
        let opponent = { (level: Int) in level == 4 ? "level 4 (perfect)" : level == 1 ? "level 1 (random)" : "level \(level)" }
        let rows = results.comparisons.map { row -> [String] in
            let side = row.side == "first" ? "first" : "second"
            if row.figure == "games" {
                let shown = { (spread: BenchResults.Learner.Spread) in
                    "\(Format.grouped(Int(spread.median.rounded()))) · \(Format.grouped(Int(spread.p90.rounded())))"
                }
                return [side, opponent(row.against), "games until \(results.unbeaten) in a row not lost (median · p90)",
                        shown(row.michie), shown(row.quick), Format.ratio(row.quick.median / max(row.michie.median, 1))]
            }
            let ratio = row.michie.mean > 0 ? Format.ratio(row.quick.mean / row.michie.mean) : ""
            // A rate under 1 % to two places, so that the ratio beside it can be read from them.
            let rate = { (share: Double) in share < 0.01 ? String(format: "%.2f %%", share * 100) : Format.percent(share) }
            return [side, opponent(row.against), "lost in games \(late)", rate(row.michie.mean), rate(row.quick.mean), ratio]
        }
        let levels = results.levels.map { level in
            [opponent(level.level), [level.won, level.drew, level.lost].map(Format.percent).joined(separator: " · ")]
        }
        let source = results.measured.map { Self.measured($0, "\(results.seeds) seeds of \(Format.grouped(results.games)) games each, every game seeded") }
            ?? "\(results.seeds) seeds of \(Format.grouped(results.games)) games each, every game seeded.\n\n"
        return source
            + Format.table(["the learner plays", "against", "figure", "Michie's rules", "quick rules", "quick ÷ Michie's"], rows, right: [])
            + "\nThe quick rules against each level, starters taking turns:\n\n"
            + Format.table(["against", "won · drew · lost, games \(late)"], levels, right: [])
    }

    // MARK: Parts

    private func gameLoopRows(_ loop: BenchResults.GameLoop) -> [[String]] {
        let labels: [(String, String, String?)] = [
            ("(a)", "(a) a press, full stack, simulated chip", "(b)"),
            ("(b)", "(b) the same press, imperative, simulated chip", nil),
            ("(a′)", "(a′) a press, full stack, counting chip", "(b′)"),
            ("(b′)", "(b′) the same press, imperative, counting chip", nil),
            ("(c)", "(c) a scan step, X full and O dim", "(c′)"),
            ("(c′)", "(c′) a scan step, colour only", nil),
            ("(e)", "(e) a move of the perfect computer", nil),
        ]
        return labels.map { label, name, baseline -> [String] in
            let result = loop.benchmark(label)
            let ratio = baseline.flatMap { loop.benchmark($0)?.wallTimeNs?.p50 }.map { Format.ratio((result?.wallTimeNs?.p50 ?? 0) / max($0, 1)) }
            return [name, Format.nanoseconds(result?.wallTimeNs?.p50), Format.nanoseconds(result?.wallTimeNs?.p99),
                    result?.mallocs.map { "\($0.p50) · \($0.max)" } ?? "—", ratio.map { "\(label)/\(baseline ?? ""): \($0)" } ?? ""]
        }
    }

    private func budget(_ name: String, suffix: String = "") -> String {
        guard let value = budgets[name] else { return "" }
        if let number = Int(value) { return Format.grouped(number) + suffix }
        return value + suffix
    }

    private static func measured(_ context: BenchResults.Context, _ how: String) -> String {
        "Measured \(context.day) at `\(context.commit)` with Swift \(context.swift), \(context.processors) processors "
            + "(load \(String(format: "%.1f", context.load)) as the run began); \(how).\n\n"
    }

    private static func notMeasured(_ file: String, by producer: String) -> String {
        "Not measured yet: `make bench` (\(producer)) writes `\(BenchResults.folder)/\(file)`, and `make docs` this table.\n"
    }
}

/// How the figures are written: thousands grouped, times in their unit, ratios with ×.
enum Format {
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }

    static func percent(_ share: Double?) -> String { String(format: "%.1f %%", (share ?? 0) * 100) }

    static func megabytes(_ value: Double) -> String { String(format: "%.1f MB", value) }

    static func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value) }

    /// Milliseconds, or microseconds under one (a broker's round trip on loopback).
    static func shortTime(_ value: Double) -> String { value < 1 ? String(format: "%.0f µs", value * 1000) : milliseconds(value) }

    static func nanoseconds(_ value: Double?) -> String {
        guard let value else { return "—" }
        if value < 10_000 { return "\(grouped(Int(value.rounded()))) ns" }
        if value < 10_000_000 { return "\(grouped(Int((value / 1000).rounded()))) µs" }
        return String(format: "%.1f ms", value / 1_000_000)
    }

    /// A Markdown table; the columns in `right` aligned right.
    static func table(_ header: [String], _ rows: [[String]], right: Set<Int>) -> String {
        var lines = ["| " + header.joined(separator: " | ") + " |"]
        lines.append("| " + header.indices.map { right.contains($0) ? "---:" : "---" }.joined(separator: " | ") + " |")
        for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
        return lines.joined(separator: "\n") + "\n"
    }
}
