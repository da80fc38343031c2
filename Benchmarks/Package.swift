// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which depends on where the project was
// cloned; work it out rather than assume it.
let project = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

// As the project's own release builds (its Package.swift): no run-time exclusivity checks, so
// that the benchmarks' harness (the counting chip) costs what its code does.
let optimized: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"])]

// Benchmarks live in their own package so that building and testing the project never pays for
// package-benchmark and its dependencies. Run with `make bench` from the top level.
let package = Package(
    name: "tictactoe-gpio-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The boards both measurements press: the full stack and the imperative baseline, on a
        // simulated or a counting chip.
        .target(
            name: "BoardUnderTest",
            dependencies: [.product(name: "TicTacToeGPIO", package: project)],
            path: "Benchmarks/BoardUnderTest",
            swiftSettings: optimized
        ),
        .executableTarget(
            name: "GameLoop",
            dependencies: [
                "BoardUnderTest",
                .product(name: "TicTacToeGPIO", package: project),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GameLoop",
            swiftSettings: optimized,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Instructions per press, counted under callgrind (make bench-instructions).
        .executableTarget(
            name: "PressCount",
            dependencies: ["BoardUnderTest", .product(name: "TicTacToeGPIO", package: project)],
            path: "Tools/PressCount",
            swiftSettings: optimized
        ),
        // How fast the matchbox learner learns, over many seeds, and its learning curves as SVG
        // (docs/BENCHMARKS.md, docs/images/learning/).
        .executableTarget(
            name: "LearnerCurves",
            dependencies: ["LearnerRuns", .product(name: "TicTacToeGPIO", package: project)],
            path: "Tools/LearnerCurves",
            swiftSettings: optimized
        ),
        // Seeded runs of fresh learners, and the figures both learner tools take from them.
        .target(
            name: "LearnerRuns",
            dependencies: [.product(name: "TicTacToeGPIO", package: project)],
            path: "Tools/LearnerRuns",
            swiftSettings: optimized
        ),
        // How the board's learner rules were found, among rules of Michie's kind (not in make
        // bench: it takes several minutes; docs/BENCHMARKS.md has its table).
        .executableTarget(
            name: "LearnerRulesSearch",
            dependencies: ["LearnerRuns", .product(name: "TicTacToeGPIO", package: project)],
            path: "Tools/LearnerRulesSearch",
            swiftSettings: optimized
        ),
    ],
    swiftLanguageModes: [.v6]
)
