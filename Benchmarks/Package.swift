// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which depends on where the project was
// cloned; work it out rather than assume it.
let project = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

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
        .executableTarget(
            name: "GameLoop",
            dependencies: [
                .product(name: "TicTacToeGPIO", package: project),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GameLoop",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
