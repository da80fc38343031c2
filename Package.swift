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
//   "The guard"); the state they guard is confined to the game loop or behind a lock, and debug
//   builds, which every test runs, keep checking at run time.
let optimized: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "tictactoe-gpio",
    products: [
        .executable(name: "tictactoe", targets: ["tictactoe"]),
        .executable(name: "tictactoe-web", targets: ["tictactoe-web"]),
        // What a program needs to run a board of its own: the rules, the reactive core, the chips
        // (simulated, and the kernel's through libgpiod), the devices, the view model, the wired
        // board, its configuration file, the terminal game and the board's API. The benchmarks package beside
        // this one uses it too. (The service and the wiring check are the command's.)
        .library(
            name: "TicTacToeGPIO",
            targets: [
                "Basics", "TicTacToe", "Matchboxes", "Reactive", "GPIO", "SimulatedGPIO", "BoardSimulation", "KernelGPIO", "Lights", "Devices", "Presentation",
                "WiredBoard", "ConfigurationFile", "BoardConfiguration", "Console", "BoardProtocol", "BoardAPI",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "Basics", swiftSettings: optimized),
        .target(name: "TicTacToe", swiftSettings: optimized),
        .target(name: "Matchboxes", dependencies: ["TicTacToe"], swiftSettings: optimized),
        .target(name: "Lights", swiftSettings: optimized),
        .target(name: "Reactive", dependencies: ["Basics"], swiftSettings: optimized),
        .target(name: "GPIO", dependencies: ["Basics", "Reactive"], swiftSettings: optimized),
        .target(name: "Devices", dependencies: ["Basics", "GPIO", "Lights", "Reactive", "TicTacToe"], swiftSettings: optimized),
        // The chip in memory, beside KernelGPIO: either backend under the same devices.
        .target(name: "SimulatedGPIO", dependencies: ["Basics", "GPIO", "Reactive"], swiftSettings: optimized),
        // The simulation kit above the devices: a person at the board and what an eye sees of it
        // (the monochrome eye reads back the view model's appearances, hence Presentation).
        .target(
            name: "BoardSimulation", dependencies: ["Basics", "Devices", "GPIO", "Lights", "Presentation", "Reactive", "SimulatedGPIO", "TicTacToe"],
            swiftSettings: optimized),
        // libgpiod through pkg-config: the system's 1.6 (v1 API), or a 2.x prefix on PKG_CONFIG_PATH.
        .systemLibrary(name: "CLibgpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .target(name: "GPIODShim", dependencies: ["CLibgpiod"]),
        .target(name: "KernelGPIO", dependencies: ["Basics", "GPIO", "GPIODShim", "Reactive"]),
        // libqrencode through pkg-config (Debian's libqrencode-dev), for the page's address as a
        // QR code: the code from a library made for it, drawn by ShareCode.
        .systemLibrary(name: "CLibqrencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "QRShim", dependencies: ["CLibqrencode"]),
        .target(name: "ShareCode", dependencies: ["QRShim"]),
        .target(name: "Presentation", dependencies: ["Basics", "Lights", "Matchboxes", "Reactive", "TicTacToe"], swiftSettings: optimized),
        .target(
            name: "WiredBoard", dependencies: ["Basics", "Devices", "GPIO", "Lights", "Matchboxes", "Presentation", "Reactive", "TicTacToe"],
            swiftSettings: optimized),
        // Reading the configuration file without knowing the board: TOML, the file's errors, the
        // web view's table. The web view's binary reads its settings with it alone.
        .target(name: "ConfigurationFile", dependencies: ["Basics"]),
        .target(
            name: "BoardConfiguration",
            dependencies: ["Basics", "ConfigurationFile", "Devices", "GPIO", "Lights", "Matchboxes", "Presentation", "TicTacToe", "WiredBoard"]),
        // The board's API as both ends speak it: messages, requests, line framing, the client's
        // connection. No game module: the web view links this, not the game.
        .target(name: "BoardProtocol", dependencies: ["Basics"]),
        .target(name: "BoardAPI", dependencies: ["Basics", "BoardProtocol", "Presentation", "Reactive", "TicTacToe"]),
        .target(
            name: "SystemdService",
            dependencies: [
                "Basics", "BoardAPI", "BoardConfiguration", "BoardProtocol", "GPIO", "Matchboxes", "Presentation", "Reactive", "TicTacToe", "WiredBoard",
            ]),
        .target(name: "HardwareDocs", dependencies: ["Devices", "GPIO"]),
        .target(name: "WiringCheck", dependencies: ["Basics", "Devices", "GPIO", "Lights", "Reactive", "TicTacToe"]),
        .target(
            name: "Console",
            dependencies: [
                "BoardSimulation", "BoardAPI", "BoardProtocol", "Basics", "Devices", "GPIO", "Lights", "Matchboxes", "Presentation", "Reactive", "SimulatedGPIO", "TicTacToe",
                "WiredBoard",
            ]),
        // Standard streams the parent closed, held on /dev/null from before main (C: a constructor).
        .target(name: "StandardStreams"),
        .executableTarget(
            name: "tictactoe",
            dependencies: [
                "BoardSimulation", "BoardAPI", "Basics", "BoardConfiguration", "BoardProtocol", "ConfigurationFile", "Console", "GPIO", "HardwareDocs", "KernelGPIO", "Lights", "Matchboxes", "Presentation", "Reactive",
                "ShareCode", "SimulatedGPIO", "StandardStreams", "SystemdService", "TicTacToe", "WiredBoard", "WiringCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The web view: HTTP and WebSocket read strictly, what the page may do and the relay to
        // the board, free of I/O (WebView); the server on one loop with its link to the board's
        // socket (WebService); the command.
        .target(name: "WebView", dependencies: ["Basics", "BoardProtocol"]),
        .target(name: "WebService", dependencies: ["Basics", "BoardProtocol", "ShareCode", "WebView"]),
        .executableTarget(
            name: "tictactoe-web",
            dependencies: [
                "Basics", "BoardProtocol", "ConfigurationFile", "ShareCode", "StandardStreams", "WebService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Runs inside the gpio-sim virtual machine (vm/): drives the real binary through the kernel.
        .executableTarget(
            name: "gpio-sim-harness", dependencies: ["Basics", "BoardSimulation", "Console", "Devices", "GPIO", "Lights", "Presentation", "TicTacToe", "WiredBoard", "WriteLog"]),
        // A log of every block write and flush (device-mapper's log-writes), replayed to each
        // instant a power cut could strike: the harness's crash points (vm/appliance).
        .target(name: "WriteLog"),
        // Helpers shared by the test targets.
        .target(name: "TestSupport", dependencies: ["Basics", "TicTacToe"], path: "Tests/TestSupport"),
        .testTarget(name: "BasicsTests", dependencies: ["Basics"]),
        .testTarget(name: "TicTacToeTests", dependencies: ["TestSupport", "TicTacToe"]),
        .testTarget(name: "MatchboxesTests", dependencies: ["Matchboxes", "TestSupport", "TicTacToe"]),
        .testTarget(name: "ReactiveTests", dependencies: ["Basics", "Reactive", "TestSupport"]),
        .testTarget(name: "LightsTests", dependencies: ["Lights", "TestSupport"]),
        .testTarget(name: "DevicesTests", dependencies: ["BoardSimulation", "Basics", "Devices", "GPIO", "Lights", "Reactive", "SimulatedGPIO", "TestSupport", "TicTacToe"]),
        .testTarget(name: "SimulatedGPIOTests", dependencies: ["Basics", "GPIO", "Reactive", "SimulatedGPIO"]),
        .testTarget(name: "KernelGPIOTests", dependencies: ["GPIO", "KernelGPIO"]),
        .testTarget(name: "PresentationTests", dependencies: ["Basics", "Lights", "Matchboxes", "Presentation", "Reactive", "TestSupport", "TicTacToe"]),
        .testTarget(
            name: "WiredBoardTests",
            dependencies: ["BoardSimulation", "Devices", "GPIO", "Lights", "Matchboxes", "Presentation", "Reactive", "SimulatedGPIO", "TestSupport", "TicTacToe", "WiredBoard"]),
        .testTarget(name: "ConfigurationFileTests", dependencies: ["Basics", "ConfigurationFile", "TestSupport", "TicTacToe"]),
        .testTarget(
            name: "BoardConfigurationTests",
            dependencies: ["Basics", "BoardConfiguration", "ConfigurationFile", "Devices", "GPIO", "Presentation", "TestSupport", "TicTacToe", "WiredBoard"]),
        .testTarget(
            name: "SystemdServiceTests",
            dependencies: [
                "BoardSimulation", "Basics", "BoardAPI", "BoardConfiguration", "Devices", "GPIO", "Matchboxes", "Presentation", "Reactive", "SimulatedGPIO", "SystemdService", "TestSupport",
                "TicTacToe", "WiredBoard",
            ]),
        .testTarget(
            name: "BoardAPITests",
            dependencies: [
                "BoardAPI", "BoardProtocol", "Basics", "Console", "GPIO", "Lights", "Matchboxes", "Presentation", "Reactive", "SimulatedGPIO", "TestSupport", "TicTacToe",
                "WiredBoard",
            ]),
        .testTarget(name: "WriteLogTests", dependencies: ["WriteLog"]),
        .testTarget(
            name: "gpio-sim-harnessTests",
            dependencies: ["Basics", "Devices", "GPIO", "Lights", "Reactive", "SimulatedGPIO", "TicTacToe", "WiredBoard", "gpio-sim-harness"]),
        .testTarget(name: "WebViewTests", dependencies: ["Basics", "BoardProtocol", "WebView"]),
        .testTarget(name: "ShareCodeTests", dependencies: ["ShareCode"]),
        .testTarget(
            name: "WebServiceTests",
            dependencies: [
                "Basics", "BoardProtocol", "TestSupport", "TicTacToe", "WebService", "WebView",
            ]),
        .testTarget(name: "HardwareDocsTests", dependencies: ["BoardConfiguration", "Devices", "HardwareDocs"]),
        .testTarget(
            name: "WiringCheckTests",
            dependencies: ["Basics", "BoardSimulation", "Devices", "GPIO", "Lights", "Reactive", "SimulatedGPIO", "TicTacToe", "WiringCheck"]),
        .testTarget(
            name: "ConsoleTests",
            dependencies: ["BoardAPI", "BoardProtocol", "Basics", "Console", "Lights", "Presentation", "Reactive", "TestSupport", "TicTacToe", "WiredBoard"]),
        // Runs the built executable as a user does (it is built with the tests: swift build
        // --build-tests), and holds the manifest's module graph to the sources.
        .testTarget(name: "tictactoeTests", dependencies: ["TestSupport", "TicTacToe"]),
    ],
    swiftLanguageModes: [.v6]
)
