import Basics
import BoardSimulation
import Devices
import EyeModels
import GPIO
import Lights
import ViewModel
import Reactive
import SimulatedGPIO
import TestSupport
import TicTacToe
import WiredBoard

/// A board on the simulated chip, the real stack (``GameBoard``: buttons, view model, row scan,
/// chip lines) with a person's fingers on its buttons, and beside it people who see no colour,
/// one per eye, looking at its LEDs.
///
/// The truth they are held to is the view model's: each change of what its state shows
/// (``Appearance``; the blink's and flicker's phases are not changes) ends a stretch, and as it
/// ends each eye reads that stretch back from the LED lines alone (``MonochromeEye``), from one
/// scan step after it began (the lines follow the frame at the next step). A stretch too short
/// for a person to read its patterns in (``PatternReader/shortestReadable(_:)``) is a glimpse:
/// counted apart, and named, never read.
final class EyesOnTheBoard: @unchecked Sendable {
    let scheduler = TestScheduler()
    let chip: SimulatedChip
    let board: GameBoard
    let person: SimulatedBoard
    let eyes: [MonochromeEye]
    /// Every stretch's light is measured in windows of one dim cycle, from `settle` into it.
    let window: Duration
    let settle: Duration
    private(set) var tally: Tally
    private var memories: [MonochromeEye.Memory]
    private var current: (appearance: Appearance, since: MonotonicInstant)
    private var watching: (any Disposable)?

    /// What the eyes read, against the truth.
    struct Tally {
        var stretches = 0, glimpses: [String] = []
        /// Per eye: stretches read right, misread, and the first few misreadings.
        var right: [Int], misread: [Int], firstMisreadings: [[String]]
        /// Every cell appearance and headline shown in a stretch the eyes read.
        var cellsShown = Set<CellAppearance>(), headlinesShown = Set<Headline>()
        /// How long the stretches read lasted, all told.
        var timeRead: Duration = .zero
    }

    /// Every reading with what was shown, while `keepsReadings` (for the tests that remove a cue).
    var keepsReadings = false
    /// Whether the eyes forget what they saw before each stretch: only the stretch's own light.
    var forgets = false
    private(set) var readings: [(eye: String, shown: Appearance, read: Result<LEDReading, Misreading>)] = []

    /// - Parameters:
    ///   - eyes: each eye's name and die weights; every one expects the standard marks, and the
    ///     board's dim cycle.
    ///   - expecting: the flicker and blink the eyes know (the board's own unless given).
    init(settings: BoardSettings, eyes: [(String, DieWeights)], expecting timings: GameTimings? = nil,
         restoring snapshot: GameSnapshot? = nil,
         random: SeededRandom = SeededRandom(seed: 39)) throws {
        chip = SimulatedChip(clock: scheduler, historyCapacity: 1 << 17)
        board = try GameBoard(chip: chip, settings: settings, scheduler: scheduler, restoring: snapshot, random: random)
        person = SimulatedBoard(chip: chip, pins: settings.pins, scheduler: scheduler, dimCycle: settings.dimCycle)
        window = LitWindows.cycleLength(rowPeriod: settings.scanRowPeriod, dimCycle: settings.dimCycle)
        settle = settings.scanRowPeriod * 2
        let reader = PatternReader(window: window, timings: timings ?? settings.game)
        self.eyes = eyes.map { MonochromeEye(name: $0.0, weights: $0.1, reader: reader, dimCycle: settings.dimCycle) }
        tally = Tally(right: eyes.map { _ in 0 }, misread: eyes.map { _ in 0 }, firstMisreadings: eyes.map { _ in [] })
        memories = eyes.map { _ in MonochromeEye.Memory() }
        current = (Appearance(board.viewModel.state.value), scheduler.now)
        board.start()
        watching = board.viewModel.state.signal.observeValues { [unowned self] state in
            let shown = Appearance(state)
            guard shown != current.appearance else { return }
            read(current.appearance, from: current.since, to: scheduler.now)
            current = (shown, scheduler.now)
        }
    }

    deinit { watching?.dispose() }

    /// What the view model shows now.
    var shown: Appearance { current.appearance }
    var state: SessionState { board.viewModel.state.value }
    /// How long the board has shown what it shows now.
    var shownFor: Duration { scheduler.now - current.since }

    /// Ends the watch: the stretch showing now is read too.
    func finish() {
        read(current.appearance, from: current.since, to: scheduler.now)
        current.since = scheduler.now
        watching?.dispose()
        board.shutdown()
    }

    /// How long a stretch showing `appearance` must last for a person to read it.
    func shortestReadable(_ appearance: Appearance) -> Duration {
        let reader = eyes[0].reader
        let status = FrameRenderer.statusLights(of: appearance.headline)
        let patterns = appearance.cells.map { FrameRenderer.light(of: $0)?.pattern } + [status.x?.pattern, status.o?.pattern]
        return settle + (patterns.map(reader.shortestReadable).max() ?? .zero)
    }

    private func read(_ truth: Appearance, from start: MonotonicInstant, to end: MonotonicInstant) {
        guard end - start >= shortestReadable(truth) else {
            tally.glimpses.append("\(truth.headline.name) \(truth.cells.map(\.name)) for \(end - start) at \(start)")
            return
        }
        let windows = LitWindows.measure(on: chip, pins: person.pins, from: start + settle, to: end, window: window)
        tally.stretches += 1
        tally.timeRead += end - start
        tally.cellsShown.formUnion(truth.cells)
        tally.headlinesShown.insert(truth.headline)
        for (index, eye) in eyes.enumerated() {
            if forgets { memories[index] = MonochromeEye.Memory() }
            let reading = eye.read(windows, memory: &memories[index])
            if keepsReadings { readings.append((eye.name, truth, reading)) }
            if case .success(let seen) = reading, seen.shows(truth) {
                tally.right[index] += 1
                continue
            }
            tally.misread[index] += 1
            guard tally.firstMisreadings[index].count < 5 else { continue }
            let said = (try? reading.get()).map(\.description) ?? "\(reading)"
            tally.firstMisreadings[index].append(
                "\(end - start) from \(start): showed \(LEDReading(cells: truth.cells, headlines: [truth.headline])), \(eye.name) read \(said)")
        }
    }
}
