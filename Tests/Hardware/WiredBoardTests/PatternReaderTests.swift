import BoardSimulation
import EyeModels
import ViewModel
import Testing

/// The eye's reading of one LED's pattern in time, on made-up levels in 10 ms windows with the
/// default flicker (50 ms each way) and blink (400 ms each way): what the appliance's reading
/// of the kernel's record relies on, unseen windows included.
@Suite("Reading an LED's pattern in time")
struct PatternReaderTests {
    let reader = PatternReader(window: .milliseconds(10), timings: GameTimings())

    /// `phases` of (level, windows) one after the other.
    func levels(_ phases: [(Double?, Int)]) -> [Double?] {
        phases.flatMap { level, count in [Double?](repeating: level, count: count) }
    }

    /// The pattern's name, "dark", or "unread".
    func pattern(_ levels: [Double?]) -> String {
        switch reader.read(levels, darkBelow: 0.05) {
        case .success(let light): light.pattern?.rawValue ?? "dark"
        case .failure: "unread"
        }
    }

    @Test("steady, dark, the blink and the flicker, each told from the others")
    func patterns() {
        #expect(pattern(levels([(0.3, 20)])) == "steady")
        #expect(pattern(levels([(0.01, 20)])) == "dark")
        #expect(pattern(levels([(1, 40), (0, 40), (1, 40)])) == "blink")
        #expect(pattern(levels([(1, 5), (0, 5), (1, 5), (0, 5), (1, 5), (0, 5)])) == "flicker")
        // A second refused press starts the flicker lit again: one lit phase twice as long.
        #expect(pattern(levels([(1, 5), (0, 5), (1, 10), (0, 5), (1, 5), (0, 5)])) == "flicker")
        // A steady O beside the flicker of a press on it: the flicker.
        #expect(pattern(levels([(0.17, 30), (1, 5), (0, 5), (1, 5), (0, 5), (1, 5), (0.17, 30)])) == "flicker")
    }

    @Test("a lone unseen window is bridged by the eye's sum; 30 ms unseen end every run, and the stretch is too short to tell")
    func unseen() {
        #expect(pattern(levels([(1, 5), (0, 2), (nil, 1), (0, 2), (1, 5), (0, 5), (1, 5)])) == "flicker")
        let starved = levels([(1, 5), (nil, 3), (0, 2), (nil, 3), (1, 2), (nil, 3), (0, 2), (nil, 3), (1, 5)])
        #expect(pattern(starved) == "unread")
        #expect(pattern(levels([(1, 3), (0, 3)])) == "unread", "shorter than a phase bounded by two others")
    }
}
