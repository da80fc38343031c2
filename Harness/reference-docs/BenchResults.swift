import Foundation

/// The results files `make bench` writes into `Benchmarks/results/`, one per part of it, each
/// with where and when it was measured. docs/BENCHMARKS.md's tables are rendered from them
/// (``BenchFigures``); the files are committed with the figures.
enum BenchResults {
    static let folder = "Benchmarks/results"

    /// Where and when a part of `make bench` ran (`scripts/bench-context.sh`).
    struct Context: Codable, Sendable {
        var day: String
        var commit: String
        var swift: String
        var processors: Int
        var load: Double
    }

    /// Percentiles of a time, in the unit the file names.
    struct Times: Codable, Sendable {
        var p50: Double
        var p90: Double?
        var p99: Double
        var max: Double?
        var runs: Int?
        var n: Int?
    }

    /// `scripts/bench-instructions.sh`: callgrind's counts and the plain loop's times.
    struct Instructions: Codable, Sendable {
        var measured: Context
        var runs: Int
        var servedRuns: Int
        /// Per run of each kind: a press (`full`, `imperative`, `served-K`), a scan step, a move,
        /// a millisecond of virtual time (`o-to-start`).
        var instructions: [String: Int]
        var allocationsPerPress: Double
        var wallTimeNs: [String: Times]

        enum CodingKeys: String, CodingKey {
            case measured, runs, instructions
            case servedRuns = "served-runs", allocationsPerPress = "allocations-per-press", wallTimeNs = "wall-time-ns"
        }
    }

    /// `scripts/bench-game-loop.sh`: package-benchmark's figures, by benchmark name.
    struct GameLoop: Codable, Sendable {
        struct Benchmark: Codable, Sendable {
            struct Allocations: Codable, Sendable {
                var p50: Int
                var max: Int
            }

            struct Count: Codable, Sendable {
                var p50: Double
                var max: Double
            }

            var samples: Int
            var wallTimeNs: Times?
            var mallocs: Allocations?
            var actions: Count?

            enum CodingKeys: String, CodingKey {
                case samples, mallocs, actions
                case wallTimeNs = "wall-time-ns"
            }
        }

        var measured: Context
        var benchmarks: [String: Benchmark]

        /// The benchmark whose name starts with `label` ("(a′)").
        func benchmark(_ label: String) -> Benchmark? {
            benchmarks.first { $0.key.hasPrefix(label + " ") }?.value
        }
    }

    /// `Benchmarks/Tools/LearnerCurves`: the learner's figures over the seeds, Michie's rules
    /// beside the board's.
    struct Learner: Codable, Sendable {
        /// One rules' figure over the seeds.
        struct Spread: Codable, Sendable {
            var mean: Double
            var median: Double
            var p90: Double
        }

        struct Comparison: Codable, Sendable {
            /// `first` or `second`: who starts every game.
            var side: String
            /// The computer's level.
            var against: Int
            /// `games` (until `unbeaten` in a row not lost) or `lost` (the share lost in `late`).
            var figure: String
            var michie: Spread
            var quick: Spread
        }

        /// The board's rules against one level, starters taking turns, in `late`.
        struct Level: Codable, Sendable {
            var level: Int
            var won: Double
            var drew: Double
            var lost: Double
        }

        var measured: Context?
        var seeds: Int
        var games: Int
        var unbeaten: Int
        var late: [Int]
        var comparisons: [Comparison]
        var levels: [Level]
    }

    /// `browser/bench_page.py`: the web view's figures, times in milliseconds.
    /// browser/bench_network.py's figures: two boards, one game, through a loopback broker.
    struct Network: Codable, Sendable {
        var measured: Context
        var games: Int
        var presses: Int
        var pressToOtherLeds: Times
        var pressToOwnLeds: Times
        var brokerRoundTrip: Times
        var linkMemoryMb: [Double]
        /// A hundred boards on the broker beside the two; `nil` from a run before it was measured.
        var hundredBoards: HundredBoards?

        /// The link's processor time for each of a hundred other boards' states, against its time
        /// for each press of its own game.
        struct HundredBoards: Codable, Sendable {
            var boards: Int
            var states: Int
            var statesPerSecond: Int
            var linkCpuUsPerState: Double
            var linkCpuUsPerPress: Double
            var linkMemoryMb: Double
            var dropped: Int
            /// The page's boards view of them; `nil` from a run before it was measured.
            var boardsView: BoardsView?

            enum CodingKeys: String, CodingKey {
                case boards, states, dropped
                case statesPerSecond = "states-per-second", linkCpuUsPerState = "link-cpu-us-per-state"
                case linkCpuUsPerPress = "link-cpu-us-per-press", linkMemoryMb = "link-memory-mb", boardsView = "boards-view"
            }
        }

        /// A page showing the boards view while the hundred change: the lists it is sent, how long
        /// after the last state it shows it, the web view's time and memory.
        struct BoardsView: Codable, Sendable {
            var listsPerSecond: Double
            var boardsListed: Int
            var listBytes: Int
            var lastStateShownMs: Double
            var webCpuUsPerList: Double
            var webMemoryMb: Double
            var webMemoryBeforeMb: Double

            enum CodingKeys: String, CodingKey {
                case listsPerSecond = "lists-per-second", boardsListed = "boards-listed", listBytes = "list-bytes"
                case lastStateShownMs = "last-state-shown-ms", webCpuUsPerList = "web-cpu-us-per-list"
                case webMemoryMb = "web-memory-mb", webMemoryBeforeMb = "web-memory-before-mb"
            }
        }

        enum CodingKeys: String, CodingKey {
            case measured, games, presses, pressToOtherLeds = "press-to-other-leds", pressToOwnLeds = "press-to-own-leds"
            case brokerRoundTrip = "broker-round-trip"
            case linkMemoryMb = "link-memory-mb"
            case hundredBoards = "hundred-boards"
        }
    }

    struct WebPage: Codable, Sendable {
        struct File: Codable, Sendable {
            var p50: Double
            var p99: Double
            var path: String
            var bytes: Int
        }

        struct Memory: Codable, Sendable {
            var idle: Double
            var pagesOpen: Double
            var afterPresses: Double

            enum CodingKeys: String, CodingKey {
                case idle, pagesOpen = "pages-open", afterPresses = "after-presses"
            }
        }

        var measured: Context
        var pages: Int
        var presses: Int
        var pageLoad: Times
        var pageLoadBaseline: Times
        var clickToPage: Times
        var clickToLeds: Times
        var apiPress: Times
        var largestFile: File
        var smallestFile: File
        var memoryMb: Memory

        enum CodingKeys: String, CodingKey {
            case measured, pages, presses
            case pageLoad = "page-load", pageLoadBaseline = "page-load-baseline", clickToPage = "click-to-page"
            case clickToLeds = "click-to-leds", apiPress = "api-press", largestFile = "largest-file"
            case smallestFile = "smallest-file", memoryMb = "memory-mb"
        }
    }

    /// The results file `name` decoded, or nil when `make bench` has not written it.
    static func read<Results: Decodable>(_ type: Results.Type, _ name: String, in repository: Repository) throws -> Results? {
        let path = folder + "/" + name
        guard repository.exists(path) else { return nil }
        return try JSONDecoder().decode(type, from: Data(repository.text(path).utf8))
    }

    /// `Benchmarks/budgets.txt`: each budget by its name.
    static func budgets(in repository: Repository) throws -> [String: String] {
        var budgets: [String: String] = [:]
        for line in try repository.text("Benchmarks/budgets.txt").split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 2 { budgets[String(words[0])] = String(words[1]) }
        }
        return budgets
    }
}
