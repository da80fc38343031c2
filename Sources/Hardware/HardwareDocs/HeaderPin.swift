import Devices
import GPIO

/// One pin of the Raspberry Pi's 40-pin header and what the board's pin map does with it.
public struct HeaderPin: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case power(String)
        case ground
        case gpio(LineOffset)
    }

    /// The physical pin number, 1–40 (odd pins on the inner row).
    public let number: Int
    public let kind: Kind
    /// What the board uses it for, or why it is left alone.
    public let function: String
    /// A wire colour that makes the groups easy to tell apart while building ("—": no wire).
    public let wire: String

    /// Whether the board connects a wire to this pin.
    public var isWired: Bool { wire != "—" }

    /// BCM line of each physical pin on every 40-pin Raspberry Pi (nil: power or ground).
    static let layout: [Int: Kind] = {
        var pins: [Int: Kind] = [1: .power("3V3"), 17: .power("3V3"), 2: .power("5V"), 4: .power("5V")]
        for ground in [6, 9, 14, 20, 25, 30, 34, 39] { pins[ground] = .ground }
        let lines: [Int: UInt32] = [
            3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
            21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
            36: 16, 37: 26, 38: 20, 40: 21,
        ]
        for (pin, line) in lines { pins[pin] = .gpio(LineOffset(line)) }
        return pins
    }()

    /// All forty pins with the roles `pins` gives them.
    public static func header(for pins: PinMap) -> [HeaderPin] {
        var roles: [LineOffset: (String, String)] = [:]
        for (index, offset) in pins.cellButtons.enumerated() {
            roles[offset] = ("button, cell row \(index / 3) column \(index % 3)", "white")
        }
        roles[pins.newGameButton] = ("button, new game", "yellow")
        for (row, offset) in pins.rows.enumerated() { roles[offset] = ("matrix row \(row) (NPN base resistor)", "blue") }
        for (column, offset) in pins.redColumns.enumerated() { roles[offset] = ("matrix red column \(column) (resistor)", "red") }
        for (column, offset) in pins.greenColumns.enumerated() { roles[offset] = ("matrix green column \(column) (resistor)", "green") }
        roles[pins.xStatus] = ("status LED X, red (resistor)", "orange")
        roles[pins.oStatus] = ("status LED O, green (resistor)", "purple")
        return (1...40).map { number in
            switch layout[number] ?? .ground {
            case .power(let name): return HeaderPin(number: number, kind: .power(name), function: "\(name) power, not used", wire: "—")
            case .ground: return HeaderPin(number: number, kind: .ground, function: "ground (buttons, matrix emitters)", wire: "black")
            case .gpio(let offset):
                if let (function, wire) = roles[offset] {
                    return HeaderPin(number: number, kind: .gpio(offset), function: function, wire: wire)
                }
                let reason = PinMap.reservedLines[offset].map { "reserved: \($0.replacing("it is ", with: ""))" } ?? "spare"
                return HeaderPin(number: number, kind: .gpio(offset), function: reason, wire: "—")
            }
        }
    }

    public var label: String {
        switch kind {
        case .power(let name): name
        case .ground: "GND"
        case .gpio(let offset): "\(offset)"
        }
    }
}
