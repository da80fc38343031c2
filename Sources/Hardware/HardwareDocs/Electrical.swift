/// The board's resistor values, worked out from the LED and transistor figures so that the
/// picture, the notes and the parts list cannot disagree.
///
/// Columns source at most `columnCurrent` each from 3.3 V through the LED and the row's NPN
/// switch; status LEDs are driven directly. Values round up to the E12 series, so currents stay
/// at or below the targets.
public struct Electrical: Sendable, Hashable {
    public var supply = 3.3
    public var redForwardVoltage = 2.0
    public var greenForwardVoltage = 2.2
    public var transistorSaturation = 0.1
    public var baseEmitterVoltage = 0.7
    /// Current per column (per lit LED) while its row is on.
    public var columnCurrent = 0.005
    public var statusCurrent = 0.005
    /// The NPN's minimum current gain, and how hard to overdrive the base to be sure it saturates.
    public var minimumGain = 100.0
    public var overdrive = 5.0

    public init() {}

    public static let standard = Electrical()

    public var redColumnResistor: Double { e12(atLeast: (supply - redForwardVoltage - transistorSaturation) / columnCurrent) }
    public var greenColumnResistor: Double { e12(atLeast: (supply - greenForwardVoltage - transistorSaturation) / columnCurrent) }
    public var redStatusResistor: Double { e12(atLeast: (supply - redForwardVoltage) / statusCurrent) }
    public var greenStatusResistor: Double { e12(atLeast: (supply - greenForwardVoltage) / statusCurrent) }

    /// A row carries up to six LEDs (three cells, red and green both for amber).
    public var rowCurrent: Double {
        3 * (supply - redForwardVoltage - transistorSaturation) / redColumnResistor
            + 3 * (supply - greenForwardVoltage - transistorSaturation) / greenColumnResistor
    }

    /// Rounded down, for more base current than the minimum.
    public var baseResistor: Double { e12(atMost: (supply - baseEmitterVoltage) / (rowCurrent / minimumGain * overdrive)) }

    /// The most the GPIO pins source at once: every column lit, both status LEDs, one base.
    public var worstCaseTotal: Double {
        rowCurrent + (supply - redForwardVoltage) / redStatusResistor + (supply - greenForwardVoltage) / greenStatusResistor
            + (supply - baseEmitterVoltage) / baseResistor
    }

    static let e12 = [1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2]

    private static func series() -> [Double] {
        (0...5).flatMap { decade in e12.map { $0 * pow10(decade) } }
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }

    private func e12(atLeast ohms: Double) -> Double { Self.series().first { $0 >= ohms - 1e-9 } ?? ohms }
    private func e12(atMost ohms: Double) -> Double { Self.series().last { $0 <= ohms + 1e-9 } ?? ohms }

    /// "220 Ω", "1.8 kΩ".
    public static func ohms(_ value: Double) -> String {
        if value >= 1000 {
            let k = value / 1000
            return k == k.rounded() ? "\(Int(k)) kΩ" : "\(String(format1(k))) kΩ"
        }
        return "\(Int(value.rounded())) Ω"
    }

    /// "4.5 mA".
    public static func milliamps(_ amps: Double) -> String { "\(format1(amps * 1000)) mA" }

    static func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
