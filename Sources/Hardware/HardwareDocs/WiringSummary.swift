import Devices
import GPIO

/// The README's "wiring at a glance" table, generated from the pin map so that it cannot drift
/// from it (a test holds the README to it).
public enum WiringSummary {
    public static func markdown(for pins: PinMap, electrical: Electrical = .standard) -> String {
        let cells = stride(from: 0, to: 9, by: 3).map { numbers(pins.cellButtons[$0..<($0 + 3)]) }.joined(separator: " / ")
        let rows: [(String, String)] = [
            ("cell buttons (reading order, top-left first), \(buttonWiring(pins.buttonPolarity))", "GPIO" + cells),
            ("new-game button", "GPIO\(pins.newGameButton.rawValue)"),
            ("matrix rows (top to bottom, \(rowWiring(pins.rowPolarity)))", "GPIO" + numbers(pins.rows)),
            ("red columns (left to right, through \(Electrical.ohms(electrical.redColumnResistor)))", "GPIO" + numbers(pins.redColumns)),
            ("green columns (through \(Electrical.ohms(electrical.greenColumnResistor)))", "GPIO" + numbers(pins.greenColumns)),
            ("status LEDs", "X (red) GPIO\(pins.xStatus.rawValue), O (green) GPIO\(pins.oStatus.rawValue)"),
            ("never used", "GPIO0/1 (HAT EEPROM), GPIO14/15 (serial console)" + spare(pins)),
        ]
        return (["| group | BCM lines |", "| --- | --- |"] + rows.map { "| \($0.0) | \($0.1) |" }).joined(separator: "\n") + "\n"
    }

    private static func numbers(_ lines: some Sequence<LineOffset>) -> String {
        lines.map { "\($0.rawValue)" }.joined(separator: ", ")
    }

    private static func buttonWiring(_ polarity: Polarity) -> String {
        polarity == .activeLow ? "to ground, internal pull-up" : "to 3.3 V, internal pull-down"
    }

    private static func rowWiring(_ polarity: Polarity) -> String {
        polarity == .activeHigh ? "through NPN low-side switches" : "lit low"
    }

    /// The header's other lines (GPIO2–27, the serial console's aside), free for other uses.
    private static func spare(_ pins: PinMap) -> String {
        let used = Set((pins.inputOffsets + pins.outputOffsets).map { Int($0.rawValue) })
        let free = (2...27).filter { !used.contains($0) && $0 != 14 && $0 != 15 }
        return free.isEmpty ? "" : "; GPIO" + free.map(String.init).joined(separator: ", ") + " spare"
    }
}
