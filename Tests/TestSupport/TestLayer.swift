import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The layers of the unit and simulation tests, so that a developer can run the fast ones alone
/// (`make quick`) and every test still runs in `make test`.
///
/// - **pure**: in this process, with nothing but the code under test, and quick: a second or
///   so at most. A test says nothing to be pure: an untagged test is pure, and always runs.
/// - **process** (`.process`): starts a process: the built `tictactoe` or `tictactoe-web`, a
///   pseudo-terminal's child, `python3`, or the test runner itself (an exit test). It needs what
///   `swift build --build-tests` and `make setup-tests` provide, and pays a program's start.
/// - **soak** (`.soak`): in process, but long: a seeded soak, fuzz or stress loop (a thousand
///   random games, thousands of moves, mutations or requests) taking about a second and a half
///   or more in a serial run of the debug build (docs/TESTING.md, "The inner loop"). The rules'
///   exhaustive checks (every terminal position, every line of play against the perfect
///   computer) take about as long but stay pure: a change to the rules must pass them at once.
///
/// The environment variable `TEST_LAYERS` chooses: unset or empty, every layer runs (as
/// `make test` runs them); else a comma-separated list of the layers to run, and a tagged test
/// of a layer not in it is skipped, saying how to run it (`TEST_LAYERS=pure`: the pure tests
/// alone, `make quick`; `TEST_LAYERS=pure,soak`: all but the processes). A layer it does not know
/// fails every tagged test rather than skip it: a typo must not pass for a quick run. Swift
/// Testing's tags would say the same, but neither SwiftPM 6.0 nor 6.3 can choose tests by tag
/// on the command line; a condition trait works with both.
public enum TestLayer: String, CaseIterable, Sendable {
    case pure, process, soak

    /// The layers `TEST_LAYERS` chooses; nil when it chooses them all (unset or empty).
    public static func chosen() throws -> Set<TestLayer>? {
        guard let value = getenv("TEST_LAYERS").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        var layers: Set<TestLayer> = []
        for name in value.split(separator: ",") {
            let name = String(name.filter { !$0.isWhitespace })
            guard let layer = TestLayer(rawValue: name) else { throw UnknownLayer(name: name) }
            layers.insert(layer)
        }
        return layers
    }

    /// Whether the tests of this layer run: pure ones always do.
    public var runs: Bool {
        get throws { try self == .pure || Self.chosen()?.contains(self) ?? true }
    }

    fileprivate var condition: ConditionTrait {
        .enabled(Comment(rawValue: "a \(rawValue) test, not chosen by TEST_LAYERS: to run it, add \(rawValue) to TEST_LAYERS, or unset it")) {
            try runs
        }
    }

    public struct UnknownLayer: Error, CustomStringConvertible {
        public var name: String
        public var description: String {
            "TEST_LAYERS names \"\(name)\", which is no layer: the layers are \(TestLayer.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// A test or suite that starts a process (``TestLayer/process``).
    public static var process: Self { TestLayer.process.condition }

    /// A long seeded soak, fuzz or stress test, in process (``TestLayer/soak``).
    public static var soak: Self { TestLayer.soak.condition }
}
