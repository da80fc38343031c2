import Lights
import ViewModel
import TicTacToe

/// How bright each die of the board looks to one eye, per unit of time lit: the two numbers by
/// which an eye that sees no colour tells the LEDs apart. A normal eye, a protan's (red looks
/// far darker) and a deutan's weigh the same dies differently.
public struct DieWeights: Sendable, Hashable {
    public var red: Double
    public var green: Double

    public init(red: Double, green: Double) {
        self.red = red
        self.green = green
    }

    /// Both dies alike: brightness as the lines say it, with no eye's bias.
    public static let even = DieWeights(red: 1, green: 1)

    /// How `eye` sees the dies of `part` (``LEDPart/light(of:for:)``): cone fundamentals and
    /// luminosity from the CIE 2006 tables, at the part's wavelengths and intensities.
    public init(_ eye: Eye, part: LEDPart) {
        self.init(red: part.light(of: .red, for: eye), green: part.light(of: .green, for: eye))
    }

    /// How bright `color` looks with both its dies lit all the time.
    public func level(of color: LEDColor) -> Double {
        (color.isRedLit ? red : 0) + (color.isGreenLit ? green : 0)
    }
}

/// A person who sees no colour looking at the board: reads back what the board shows (an
/// ``Appearance``, as ``LEDReading``) from the light its LEDs gave over a stretch of time in
/// which it showed one thing, each die weighted by this eye (``DieWeights``).
///
/// What the person knows is the table itself (``FrameRenderer``): how each cell appearance and
/// each headline lights the LEDs with the standard marks. From the lines it reads each LED's
/// pattern (``PatternReader``) and how bright it is, lit and between, takes for each the
/// table's light of that pattern nearest in brightness (by ratio), and keeps the appearances
/// and headlines that show that light. The status LEDs are told by their place (X's side, O's side), never by colour.
/// Where the table lights two things alike, context decides, as it does for a person:
/// - an X or an O in the choice of opponent or in the game, a winning mark or a drawn one: by
///   the status LEDs (dark in the choice; blinking on the winner's side, or both for a draw);
/// - what the choice of opponent offers: by which cells are lit (``Appearance/offering(_:)``);
/// - a refused press on an empty cell, on an X or on an O: by the light between the flicker's
///   lit phases (dark, or the mark), where the table sets one; failing that, by what the cell
///   held when last seen (``Memory``); and the game under dark lights, asleep, by that alone;
/// - O's turn and the computer thinking look the same on the LEDs: both are read
///   (``LEDReading/headlines``).
///
/// Pure: the memory is the caller's, passed in and out.
public struct MonochromeEye: Sendable {
    public let name: String
    public let weights: DieWeights
    public let reader: PatternReader
    /// How the person expects marks to be shown: the standard marks, whatever the board does.
    public let marks: MarkStyle
    /// How dim a dim LED is: the board's cycle.
    public let dimCycle: DimCycle
    /// The table as this eye sees it, worked out once: each cell appearance's light, each
    /// headline's status lights, every light each LED can show, below what each is dark, and
    /// how much dimmer than its lit phase the light between of a pattern of it can be.
    let cellLights: [(cell: CellAppearance, light: Expected)]
    let statusLights: [(headline: Headline, x: Expected, o: Expected)]
    let ledLights: [Set<Expected>]
    let darkBelow: [Double]
    let modulation: [Double]

    public init(name: String, weights: DieWeights, reader: PatternReader, dimCycle: DimCycle, marks: MarkStyle = .standard) {
        self.name = name
        self.weights = weights
        self.reader = reader
        self.dimCycle = dimCycle
        self.marks = marks
        func expected(_ light: Light?, share: Double) -> Expected {
            guard let light else { return .dark }
            func level(_ color: LEDColor, _ brightness: Brightness) -> Double {
                weights.level(of: color) * dimCycle.duty(of: brightness) * share
            }
            let between = light.pattern == .steady ? nil : level(light.betweenColor, light.betweenBrightness)
            return Expected(pattern: light.pattern, level: level(light.color, light.brightness), between: between)
        }
        // A cell is lit one row in three; a status LED is driven directly.
        let cellLights = CellAppearance.allCases.map { ($0, expected(FrameRenderer.light(of: $0, marks: marks), share: 1.0 / 3)) }
        let statusLights = Self.boardHeadlines.map { headline in
            let status = FrameRenderer.statusLights(of: headline, marks: marks)
            return (headline, expected(status.x, share: 1), expected(status.o, share: 1))
        }
        let ledLights = [Set<Expected>](repeating: Set(cellLights.map(\.1)), count: 9) + [Set(statusLights.map(\.1)), Set(statusLights.map(\.2))]
        self.cellLights = cellLights
        self.statusLights = statusLights
        self.ledLights = ledLights
        darkBelow = ledLights.map { lights in (lights.filter { $0.pattern != nil }.map(\.level).min() ?? 0) / 2 }
        modulation = zip(ledLights, darkBelow).map { Self.modulation(among: $0, darkBelow: $1) }
    }

    /// How many times dimmer than its brightest a light must get to be seen as a pattern: the
    /// geometric middle of the least-modulated pattern the LED can show (a refused press on a
    /// mark flickers between amber and the mark); where every pattern goes dark between (the
    /// status LEDs), none: only going dark is a pattern there, and a dim status LED whose
    /// pulses come a little early or late while the matrix starts and stops scanning (as a
    /// refused press flickers on a dark matrix) is still steady.
    static func modulation(among lights: Set<Expected>, darkBelow: Double) -> Double {
        let ratios = lights.compactMap { light -> Double? in
            guard light.pattern != nil && light.pattern != .steady, light.between >= darkBelow else { return nil }
            return light.level / light.between
        }
        return ratios.min().map { $0.squareRoot() } ?? .infinity
    }

    /// What the person remembers of the game: each cell as last seen in it (a refused press's
    /// cell as the mark under it). Empty after the choice of opponent, which starts a new game.
    public struct Memory: Sendable, Hashable {
        public var cells = [CellAppearance](repeating: .empty, count: 9)
        public init() {}
    }

    /// The eleven LEDs' light in `windows`: the nine cells in reading order, then the X and the O
    /// status LED.
    public func lights(in windows: LitWindows) -> Result<[SeenLight], Misreading> {
        let xWeight = weights.level(of: FrameRenderer.color(of: .x)), oWeight = weights.level(of: FrameRenderer.color(of: .o))
        var seen: [SeenLight] = []
        var levels = [Double?](repeating: nil, count: windows.count)
        for led in 0..<11 {
            for index in 0..<windows.count {
                switch led {
                case 0..<9: levels[index] = weights.red * windows.share(of: LitWindows.red(led), in: index)
                    + weights.green * windows.share(of: LitWindows.green(led), in: index)
                case 9: levels[index] = xWeight * windows.share(of: LitWindows.xStatus, in: index)
                default: levels[index] = oWeight * windows.share(of: LitWindows.oStatus, in: index)
                }
            }
            switch reader.read(levels, darkBelow: darkBelow[led], modulation: modulation[led]) {
            case .success(let light): seen.append(light)
            case .failure(let problem): return .failure(Misreading("\(Self.ledName(led)): \(problem)"))
            }
        }
        return .success(seen)
    }

    /// What the board showed in `windows` (one thing throughout), with what the person
    /// remembers; the memory is updated with what was read.
    public func read(_ windows: LitWindows, memory: inout Memory) -> Result<LEDReading, Misreading> {
        switch lights(in: windows) {
        case .failure(let problem): return .failure(problem)
        case .success(let seen):
            let reading = read(seen, memory: memory)
            if case .success(let found) = reading { memory.remember(found) }
            return reading
        }
    }

    /// What eleven LEDs' light shows (``lights(in:)``), given what the person remembers.
    public func read(_ seen: [SeenLight], memory: Memory) -> Result<LEDReading, Misreading> {
        let keys = seen.enumerated().map { led, light in nearest(light, led: led) }
        var found: [(Headline, [CellAppearance])] = []
        var problems: [String] = []
        for status in statusLights where keys[9] == status.x && keys[10] == status.o {
            switch cells(seen: Array(seen[0..<9]), under: status.headline, memory: memory) {
            case .success(let cells): found.append((status.headline, cells))
            case .failure(let problem): problems.append("not \(status.headline.name): \(problem)")
            }
        }
        guard let first = found.first else {
            return .failure(Misreading("status \(seen[9]), \(seen[10]) with cells \(seen[0..<9].map(\.description)): \(problems)"))
        }
        guard found.allSatisfy({ $0.1 == first.1 }) else {
            return .failure(Misreading("ambiguous: \(found.map { "\($0.0.name): \($0.1.map(\.name))" })"))
        }
        return .success(LEDReading(cells: first.1, headlines: Set(found.map(\.0))))
    }

    /// Every headline the board itself can show (a remote view's "unreachable" is never on it).
    public static let boardHeadlines = Headline.examples.filter { $0 != .unreachable }

    /// A light as the table has it for one LED, as this eye sees it: its pattern (`nil`: dark),
    /// how bright it is while on, and between (a pattern's off phase; for steady, the same).
    struct Expected: Hashable {
        var pattern: Light.Pattern?
        var level: Double
        var between: Double

        init(pattern: Light.Pattern?, level: Double, between: Double? = nil) {
            self.pattern = pattern
            self.level = level
            self.between = between ?? level
        }

        static let dark = Expected(pattern: nil, level: 0)
    }

    /// The table's light nearest to `light` seen on LED `led`: the same pattern, the brightness
    /// lit and between nearest by ratio (a dark between counted as half the dimmest light);
    /// `nil` when the table has no light of that pattern for this LED.
    func nearest(_ light: SeenLight, led: Int) -> Expected? {
        nearest(light, led: led, among: ledLights[led])
    }

    /// The same among `lights` only (those a cell can show under one headline).
    func nearest(_ light: SeenLight, led: Int, among lights: Set<Expected>) -> Expected? {
        guard let pattern = light.pattern else { return .dark }
        let floor = darkBelow[led]
        func ratio(_ a: Double, _ b: Double) -> Double { max(a, b, floor) / max(min(a, b), floor) }
        func distance(_ expected: Expected) -> Double {
            ratio(light.level, expected.level) * ratio(light.between, expected.between)
        }
        return lights.filter { $0.pattern == pattern }.min { distance($0) < distance($1) }
    }

    static func ledName(_ index: Int) -> String {
        switch index {
        case 0..<9: "cell \(index + 1)"
        case 9: "X's status LED"
        default: "O's status LED"
        }
    }
}

extension MonochromeEye.Memory {
    /// Keeps what `reading` showed of the game: the cells (a refused press's as the mark under
    /// it) unless dark; none after the choice of opponent.
    mutating func remember(_ reading: LEDReading) {
        if reading.headlines.contains(where: { if case .choosingOpponent = $0 { true } else { false } }) {
            cells = [CellAppearance](repeating: .empty, count: 9)
        } else if !reading.headlines.contains(where: FrameRenderer.isDark) {
            cells = reading.cells.map { cell in
                guard case .refused(let mark) = cell else { return cell }
                return mark.map(CellAppearance.mark) ?? .empty
            }
        }
    }
}
