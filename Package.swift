// swift-tools-version: 6.0
import PackageDescription

// Module graph (dependencies point one way, see README "Architecture"):
//   TicTacToe, Reactive, GPIO, Lights   depend on nothing of ours
//   Devices       -> GPIO, Reactive, Lights, TicTacToe (Position only)
//   Presentation  -> TicTacToe, Reactive, Lights        (never GPIO)
//   Appliance     -> everything above: wires one game board together
//   Console       -> Appliance: the terminal game on the simulated chip
//   KernelGPIO    -> GPIO, Reactive, GPIODShim (C, over libgpiod v1 or v2)
//   tictactoe     -> Console, Appliance, KernelGPIO + ArgumentParser: the executable
// Release builds of the game loop's modules:
// - let client modules specialise this package's generic code (the reactive core's
//   `Signal<Value>` and `Property<Value>` above all): without it every generic call from another
//   module runs unspecialised, looking up type metadata at run time;
// - check exclusive access to class properties at compile time only. The run-time checks cost a
//   quarter of the instructions of a press (measured with callgrind); the state they guard is
//   confined to the game loop or behind a lock, and debug builds, which every test runs, keep
//   checking at run time.
let optimized: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "tictactoe-gpio",
    products: [
        .executable(name: "tictactoe", targets: ["tictactoe"]),
        // What a program needs to run a board of its own: the rules, the reactive core, the chips
        // (simulated, and the kernel's through libgpiod), the devices, the view model, the wired
        // board, its configuration file and the terminal game. The benchmarks package beside
        // this one uses it too. (The service and the self-test are the command's.)
        .library(
            name: "TicTacToeGPIO",
            targets: [
                "TicTacToe", "Reactive", "GPIO", "KernelGPIO", "Lights", "Devices", "Presentation", "Appliance",
                "BoardConfiguration", "Console",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "TicTacToe", swiftSettings: optimized),
        .target(name: "Reactive", swiftSettings: optimized),
        .target(name: "GPIO", dependencies: ["Reactive"], swiftSettings: optimized),
        .target(name: "Lights", swiftSettings: optimized),
        // libgpiod through pkg-config: the system's 1.6 (v1 API), or a 2.x prefix on PKG_CONFIG_PATH.
        .systemLibrary(name: "CLibgpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .target(name: "GPIODShim", dependencies: ["CLibgpiod"]),
        .target(name: "KernelGPIO", dependencies: ["GPIO", "Reactive", "GPIODShim"]),
        .target(name: "Devices", dependencies: ["GPIO", "Reactive", "Lights", "TicTacToe"], swiftSettings: optimized),
        .target(name: "Presentation", dependencies: ["TicTacToe", "Reactive", "Lights"], swiftSettings: optimized),
        .target(name: "Appliance", dependencies: ["Devices", "Presentation", "GPIO", "Reactive", "Lights", "TicTacToe"], swiftSettings: optimized),
        .target(
            name: "BoardConfiguration",
            dependencies: ["Appliance", "Devices", "GPIO", "Presentation", "TicTacToe"]),
        .target(
            name: "SystemdService",
            dependencies: [
                "Appliance", "BoardConfiguration", "GPIO", "Presentation", "Reactive", "TicTacToe",
            ]),
        .target(name: "HardwareDocs", dependencies: ["Devices", "GPIO"]),
        .target(name: "SelfTest", dependencies: ["Devices", "GPIO", "Lights", "Reactive", "TicTacToe"]),
        .target(name: "Console", dependencies: ["Appliance", "Devices", "GPIO", "Reactive", "Lights", "TicTacToe"]),
        .executableTarget(
            name: "tictactoe",
            dependencies: [
                "Console", "Appliance", "KernelGPIO", "Devices", "GPIO", "Reactive", "Presentation",
                "BoardConfiguration", "SystemdService", "HardwareDocs", "SelfTest", "TicTacToe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets.
        .target(name: "TestSupport", dependencies: ["TicTacToe"], path: "Tests/TestSupport"),
        // Runs inside the gpio-sim virtual machine (vm/): drives the real binary through the kernel.
        .executableTarget(name: "gpio-sim-harness", dependencies: ["Console", "Devices", "GPIO", "Lights", "TicTacToe"]),
        .testTarget(name: "TicTacToeTests", dependencies: ["TicTacToe", "TestSupport"]),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive"]),
        .testTarget(name: "GPIOTests", dependencies: ["GPIO", "Reactive"]),
        .testTarget(name: "DevicesTests", dependencies: ["TestSupport", "Devices", "GPIO", "Reactive", "Lights", "TicTacToe"]),
        .testTarget(name: "PresentationTests", dependencies: ["TestSupport", "Presentation", "Reactive", "Lights", "TicTacToe"]),
        .testTarget(name: "ApplianceTests", dependencies: ["TestSupport", "Appliance", "Devices", "Presentation", "GPIO", "Reactive", "Lights", "TicTacToe"]),
        .testTarget(name: "BoardConfigurationTests", dependencies: ["BoardConfiguration", "Appliance", "Devices", "GPIO"]),
        .testTarget(name: "SystemdServiceTests", dependencies: ["SystemdService", "Appliance", "Devices", "GPIO", "Reactive", "Presentation", "TicTacToe", "TestSupport"]),
        .testTarget(name: "HardwareDocsTests", dependencies: ["HardwareDocs", "BoardConfiguration", "Devices"]),
        .testTarget(name: "SelfTestTests", dependencies: ["SelfTest", "Devices", "GPIO", "Lights", "Reactive", "TicTacToe"]),
        .testTarget(name: "KernelGPIOTests", dependencies: ["KernelGPIO", "GPIO"]),
        .testTarget(name: "ConsoleTests", dependencies: ["Console", "Appliance", "Devices", "Reactive", "Lights"]),
        // Runs the built executable as a user does (it is built with the tests: swift build --build-tests).
        .testTarget(name: "tictactoeTests", dependencies: ["TicTacToe"]),
    ],
    swiftLanguageModes: [.v6]
)
