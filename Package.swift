// swift-tools-version: 6.0
import PackageDescription

// Module graph: docs/ARCHITECTURE.md's table explains each module and lists what it depends on;
// RepositoryTests holds that table and every `import` in Sources/ to the targets below.
//
// Release builds of the game loop's modules:
// - let client modules specialise this package's generic code (the reactive core's
//   `Signal<Value>` and `Property<Value>` above all): without it every generic call from another
//   module runs unspecialised, looking up type metadata at run time;
// - check exclusive access to class properties at compile time only. The run-time checks cost a
//   press two thirds more instructions and a scan step over twice as many (docs/BENCHMARKS.md,
//   "Instructions, and the budgets"); the state they guard is confined to the game loop or
//   behind a lock, and debug builds, which every test runs, keep checking at run time.
let optimized: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "tictactoe-gpio",
    products: [
        .executable(name: "tictactoe", targets: ["tictactoe"]),
        .executable(name: "tictactoe-web", targets: ["tictactoe-web"]),
        .executable(name: "tictactoe-network", targets: ["tictactoe-network"]),
        // What a program needs to run a board of its own: the rules, the reactive core, the chips
        // (simulated, and the kernel's through libgpiod), the devices, the view model, the wired
        // board, its configuration file, the terminal game and the board's API. The benchmarks package beside
        // this one uses it too. (The service and the wiring check are the command's.)
        .library(
            name: "TicTacToeGPIO",
            targets: [
                "Basics", "TicTacToe", "Matchboxes", "Reactive", "GPIO", "SimulatedGPIO", "BoardSimulation", "KernelGPIO", "Lights", "Devices", "ViewModel",
                "WiredBoard", "ConfigurationFile", "BoardConfiguration", "Console", "BoardProtocol", "BoardAPI",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "Basics", path: "Sources/Shared/Basics", swiftSettings: optimized),
        .target(name: "TicTacToe", dependencies: ["Basics"], path: "Sources/Game/TicTacToe", swiftSettings: optimized),
        .target(name: "Matchboxes", dependencies: ["TicTacToe"], path: "Sources/Game/Matchboxes", swiftSettings: optimized),
        .target(name: "Lights", path: "Sources/Game/Lights", swiftSettings: optimized),
        .target(name: "Reactive", dependencies: ["Basics"], path: "Sources/Shared/Reactive", swiftSettings: optimized),
        .target(name: "GPIO", dependencies: ["Basics", "Reactive"], path: "Sources/Hardware/GPIO", swiftSettings: optimized),
        .target(name: "Devices", dependencies: ["Basics", "GPIO", "Lights", "Reactive", "TicTacToe"], path: "Sources/Hardware/Devices", swiftSettings: optimized),
        // The chip in memory, beside KernelGPIO: either backend under the same devices.
        .target(name: "SimulatedGPIO", dependencies: ["Basics", "GPIO", "Reactive"], path: "Sources/Hardware/SimulatedGPIO", swiftSettings: optimized),
        // The simulation kit above the devices: a person at the board and what an eye sees of it.
        .target(
            name: "BoardSimulation", dependencies: ["Basics", "Devices", "GPIO", "Lights", "Reactive", "SimulatedGPIO", "TicTacToe"], path: "Sources/Hardware/BoardSimulation",
            swiftSettings: optimized),
        // libgpiod through pkg-config: the system's 1.6 (v1 API), or a 2.x prefix on PKG_CONFIG_PATH.
        .systemLibrary(name: "CLibgpiod", path: "Sources/CShims/CLibgpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .target(name: "GPIODShim", dependencies: ["CLibgpiod"], path: "Sources/CShims/GPIODShim"),
        .target(name: "KernelGPIO", dependencies: ["Basics", "GPIO", "GPIODShim", "Reactive"], path: "Sources/Hardware/KernelGPIO"),
        // libqrencode through pkg-config (Debian's libqrencode-dev), for the page's address as a
        // QR code: the code from a library made for it, drawn by ShareCode.
        .systemLibrary(name: "CLibqrencode", path: "Sources/CShims/CLibqrencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "QRShim", dependencies: ["CLibqrencode"], path: "Sources/CShims/QRShim"),
        .target(name: "ShareCode", dependencies: ["QRShim"], path: "Sources/Web/ShareCode"),
        .target(name: "ViewModel", dependencies: ["Basics", "Lights", "Matchboxes", "Reactive", "TicTacToe"], path: "Sources/Game/ViewModel", swiftSettings: optimized),
        .target(
            name: "WiredBoard", dependencies: ["Basics", "Devices", "GPIO", "Lights", "Matchboxes", "ViewModel", "Reactive", "TicTacToe"], path: "Sources/Hardware/WiredBoard",
            swiftSettings: optimized),
        // Reading the configuration file without knowing the board: TOML, the file's errors, the
        // web view's table. The web view's binary reads its settings with it alone.
        .target(name: "ConfigurationFile", dependencies: ["Basics"], path: "Sources/Service/ConfigurationFile"),
        .target(
            name: "BoardConfiguration",
            dependencies: ["Basics", "ConfigurationFile", "Devices", "GPIO", "Lights", "Matchboxes", "ViewModel", "TicTacToe", "WiredBoard"], path: "Sources/Service/BoardConfiguration"),
        // The board's API as both ends speak it: messages, requests, line framing, the client's
        // connection. No game module: the web view links this, not the game.
        .target(name: "BoardProtocol", dependencies: ["Basics"], path: "Sources/Service/BoardProtocol"),
        .target(name: "BoardAPI", dependencies: ["Basics", "BoardProtocol", "ViewModel", "Reactive", "TicTacToe"], path: "Sources/Service/BoardAPI"),
        // SQLite through pkg-config (Debian's libsqlite3-dev): the board's memory.
        .systemLibrary(name: "CSQLite", path: "Sources/CShims/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Everything the board keeps (its game, scores, learner and finished games), in one database.
        .target(name: "BoardMemory", dependencies: ["Basics", "BoardAPI", "BoardProtocol", "CSQLite", "Matchboxes", "TicTacToe", "ViewModel"], path: "Sources/Service/BoardMemory"),
        .target(
            name: "SystemdService",
            dependencies: [
                "Basics", "BoardAPI", "BoardConfiguration", "BoardMemory", "BoardProtocol", "GPIO", "ViewModel", "Reactive", "WiredBoard",
            ], path: "Sources/Service/SystemdService"),
        .target(name: "HardwareDocs", dependencies: ["Devices", "GPIO"], path: "Sources/Hardware/HardwareDocs"),
        .target(name: "WiringCheck", dependencies: ["Basics", "Devices", "GPIO", "Lights", "Reactive", "TicTacToe"], path: "Sources/Hardware/WiringCheck"),
        .target(
            name: "Console",
            dependencies: [
                "BoardSimulation", "BoardAPI", "BoardProtocol", "Basics", "Devices", "GPIO", "Lights", "Matchboxes", "ViewModel", "Reactive", "SimulatedGPIO", "TicTacToe",
                "WiredBoard",
            ], path: "Sources/Service/Console"),
        // Standard streams the parent closed, held on /dev/null from before main (C: a constructor).
        .target(name: "StandardStreams", path: "Sources/CShims/StandardStreams"),
        .executableTarget(
            name: "tictactoe",
            dependencies: [
                "BoardSimulation", "BoardAPI", "Basics", "BoardConfiguration", "BoardMemory", "BoardProtocol", "ConfigurationFile", "Console", "GPIO", "HardwareDocs", "KernelGPIO", "Lights", "Matchboxes", "ViewModel", "Reactive",
                "ShareCode", "SimulatedGPIO", "StandardStreams", "SystemdService", "TicTacToe", "WiredBoard", "WiringCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Sources/Programs/tictactoe"
        ),
        // The web view: HTTP and WebSocket read strictly, what the page may do and the relay to
        // the board, free of I/O (WebRules); the server on one loop with its link to the board's
        // socket (WebService); the command.
        .target(name: "WebRules", dependencies: ["BoardProtocol"], path: "Sources/Web/WebRules"),
        .target(name: "WebService", dependencies: ["Basics", "BoardProtocol", "ShareCode", "WebRules"], path: "Sources/Web/WebService"),
        .executableTarget(
            name: "tictactoe-web",
            dependencies: [
                "Basics", "BoardProtocol", "ConfigurationFile", "ShareCode", "StandardStreams", "WebService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Sources/Programs/tictactoe-web"),
        // The link to an MQTT broker: what it publishes of the board and lets through to it, free of
        // I/O (NetworkRules); the broker's client over libmosquitto and the link's loop beside the
        // board's socket (NetworkLink); the command. Like the web view, no game module.
        .target(name: "NetworkRules", dependencies: ["Basics", "BoardProtocol", "ConfigurationFile"], path: "Sources/Network/NetworkRules"),
        // libmosquitto through pkg-config (Debian's libmosquitto-dev): MQTT 3.1.1 and 5, TLS.
        .systemLibrary(name: "CLibmosquitto", path: "Sources/CShims/CLibmosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "NetworkLink", dependencies: ["Basics", "BoardProtocol", "CLibmosquitto", "ConfigurationFile", "NetworkRules"], path: "Sources/Network/NetworkLink"),
        .executableTarget(
            name: "tictactoe-network",
            dependencies: [
                "Basics", "BoardProtocol", "ConfigurationFile", "NetworkLink", "NetworkRules", "StandardStreams",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Sources/Programs/tictactoe-network"),
        // Runs inside the gpio-sim virtual machine (vm/): drives the real binary through the kernel.
        .executableTarget(
            name: "gpio-sim-harness",
            dependencies: [
                "Basics", "BoardProtocol", "BoardSimulation", "Console", "Devices", "EyeModels", "GPIO", "Lights", "ViewModel", "TicTacToe", "WiredBoard",
                "WriteLog", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Harness/gpio-sim-harness"),
        // What a person who sees no colour reads back of the LEDs over time (the view model's
        // appearances): test tooling, for the tests and the harness, in no program.
        .target(
            name: "EyeModels", dependencies: ["Basics", "BoardSimulation", "Devices", "GPIO", "Lights", "SimulatedGPIO", "TicTacToe", "ViewModel"], path: "Harness/EyeModels"),
        // A log of every block write and flush (device-mapper's log-writes), replayed to each
        // instant a power cut could strike: the harness's crash points (vm/appliance).
        .target(name: "WriteLog", path: "Harness/WriteLog"),
        // `make docs`: writes the documents' generated blocks (the API's limits, the table of
        // states, the configuration's tables, the wiring table, the measured figures) from what
        // they document; its tests hold the committed documents to it.
        .executableTarget(
            name: "reference-docs",
            dependencies: ["BoardAPI", "BoardConfiguration", "BoardProtocol", "Console", "HardwareDocs", "TicTacToe", "ViewModel"], path: "Harness/reference-docs"),
        // The parsers of untrusted bytes as libFuzzer targets, each with the properties its
        // reading keeps (make fuzz, docs/TESTING.md); the executable is libFuzzer's when built
        // with -sanitize=fuzzer -DFUZZING, else it replays files through a target.
        .target(
            name: "FuzzTargets", dependencies: ["Basics", "BoardConfiguration", "BoardMemory", "BoardProtocol", "ConfigurationFile", "WebRules"], path: "Harness/FuzzTargets"),
        .executableTarget(name: "fuzz", dependencies: ["Basics", "FuzzTargets"], path: "Harness/fuzz"),
        // Helpers shared by the test targets.
        .target(name: "TestSupport", dependencies: ["Basics", "TicTacToe"], path: "Tests/TestSupport"),
        .testTarget(name: "BasicsTests", dependencies: ["Basics"], path: "Tests/Shared/BasicsTests"),
        .testTarget(name: "TicTacToeTests", dependencies: ["TestSupport", "TicTacToe"], path: "Tests/Game/TicTacToeTests"),
        .testTarget(name: "MatchboxesTests", dependencies: ["Matchboxes", "TestSupport", "TicTacToe"], path: "Tests/Game/MatchboxesTests"),
        .testTarget(name: "ReactiveTests", dependencies: ["Basics", "Reactive", "TestSupport"], path: "Tests/Shared/ReactiveTests"),
        .testTarget(name: "LightsTests", dependencies: ["Lights", "TestSupport"], path: "Tests/Game/LightsTests"),
        .testTarget(name: "DevicesTests", dependencies: ["BoardSimulation", "Basics", "Devices", "GPIO", "Lights", "Reactive", "SimulatedGPIO", "TestSupport", "TicTacToe"], path: "Tests/Hardware/DevicesTests"),
        .testTarget(name: "SimulatedGPIOTests", dependencies: ["Basics", "GPIO", "Reactive", "SimulatedGPIO"], path: "Tests/Hardware/SimulatedGPIOTests"),
        .testTarget(name: "KernelGPIOTests", dependencies: ["GPIO", "KernelGPIO"], path: "Tests/Hardware/KernelGPIOTests"),
        .testTarget(name: "ViewModelTests", dependencies: ["Basics", "Lights", "Matchboxes", "ViewModel", "Reactive", "TestSupport", "TicTacToe"], path: "Tests/Game/ViewModelTests"),
        .testTarget(
            name: "WiredBoardTests",
            dependencies: [
                "BoardSimulation", "Devices", "EyeModels", "GPIO", "Lights", "Matchboxes", "ViewModel", "Reactive", "SimulatedGPIO", "TestSupport", "TicTacToe",
                "WiredBoard",
            ], path: "Tests/Hardware/WiredBoardTests"),
        .testTarget(name: "ConfigurationFileTests", dependencies: ["Basics", "ConfigurationFile", "TestSupport", "TicTacToe"], path: "Tests/Service/ConfigurationFileTests"),
        .testTarget(
            name: "BoardConfigurationTests",
            dependencies: ["Basics", "BoardConfiguration", "ConfigurationFile", "Devices", "GPIO", "ViewModel", "TestSupport", "TicTacToe", "WiredBoard"], path: "Tests/Service/BoardConfigurationTests"),
        .testTarget(
            name: "SystemdServiceTests",
            dependencies: [
                "BoardSimulation", "Basics", "BoardAPI", "BoardConfiguration", "BoardMemory", "BoardProtocol", "Devices", "GPIO", "Matchboxes", "ViewModel", "Reactive", "SimulatedGPIO",
                "SystemdService", "TestSupport", "TicTacToe", "WiredBoard",
            ], path: "Tests/Service/SystemdServiceTests"),
        .testTarget(
            name: "BoardMemoryTests",
            dependencies: ["BoardMemory", "BoardAPI", "BoardProtocol", "Basics", "CSQLite", "Matchboxes", "TestSupport", "TicTacToe", "ViewModel"], path: "Tests/Service/BoardMemoryTests",
            exclude: ["Fixtures"]),
        .testTarget(
            name: "BoardAPITests",
            dependencies: [
                "BoardAPI", "BoardProtocol", "Basics", "Console", "GPIO", "Lights", "Matchboxes", "ViewModel", "Reactive", "SimulatedGPIO", "TestSupport", "TicTacToe",
                "WiredBoard",
            ], path: "Tests/Service/BoardAPITests"),
        .testTarget(name: "WriteLogTests", dependencies: ["WriteLog"], path: "Tests/Harness/WriteLogTests"),
        .testTarget(
            name: "reference-docsTests", dependencies: ["Console", "TestSupport", "ViewModel", "reference-docs"], path: "Tests/Harness/reference-docsTests"),
        .testTarget(
            name: "gpio-sim-harnessTests",
            dependencies: ["Basics", "Devices", "GPIO", "Lights", "Reactive", "SimulatedGPIO", "TicTacToe", "WiredBoard", "gpio-sim-harness"], path: "Tests/Harness/gpio-sim-harnessTests"),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "TestSupport"], path: "Tests/Harness/FuzzTargetsTests"),
        .testTarget(name: "WebRulesTests", dependencies: ["Basics", "BoardProtocol", "TestSupport", "WebRules"], path: "Tests/Web/WebRulesTests"),
        .testTarget(name: "NetworkRulesTests", dependencies: ["Basics", "BoardProtocol", "ConfigurationFile", "NetworkRules", "TestSupport"], path: "Tests/Network/NetworkRulesTests"),
        .testTarget(name: "ShareCodeTests", dependencies: ["ShareCode"], path: "Tests/Web/ShareCodeTests"),
        .testTarget(
            name: "WebServiceTests",
            dependencies: [
                "Basics", "BoardProtocol", "TestSupport", "TicTacToe", "WebService", "WebRules",
            ], path: "Tests/Web/WebServiceTests"),
        .testTarget(name: "HardwareDocsTests", dependencies: ["BoardConfiguration", "Devices", "HardwareDocs", "TestSupport"], path: "Tests/Hardware/HardwareDocsTests"),
        .testTarget(
            name: "WiringCheckTests",
            dependencies: ["Basics", "BoardSimulation", "Devices", "GPIO", "Lights", "Reactive", "SimulatedGPIO", "TicTacToe", "WiringCheck"], path: "Tests/Hardware/WiringCheckTests"),
        .testTarget(
            name: "ConsoleTests",
            dependencies: ["BoardAPI", "BoardProtocol", "Basics", "Console", "Lights", "ViewModel", "Reactive", "TestSupport", "TicTacToe", "WiredBoard"], path: "Tests/Service/ConsoleTests"),
        // Runs the built executable as a user does (it is built with the tests: swift build
        // --build-tests), and holds the manifest's module graph to the sources.
        .testTarget(name: "tictactoeTests", dependencies: ["Basics", "TestSupport", "TicTacToe"], path: "Tests/Programs/tictactoeTests"),
    ],
    swiftLanguageModes: [.v6]
)
