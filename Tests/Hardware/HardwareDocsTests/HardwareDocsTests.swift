import BoardConfiguration
import Devices
import Foundation
import Testing
@testable import HardwareDocs
import TestSupport

private let hardware = repositoryRoot
    .appendingPathComponent("Hardware")

private func committed(_ name: String) throws -> String {
    try String(contentsOf: hardware.appendingPathComponent(name), encoding: .utf8)
}

@Suite("Hardware documents")
struct HardwareDocsTests {
    let pins: PinMap

    init() throws {
        pins = try Configuration.load(file: hardware.appendingPathComponent("tictactoe.toml").path).settings.pins
    }

    @Test("the wiring picture is exactly what the pin map generates (run `tictactoe hardware-docs` after editing the map)")
    func wiringUpToDate() throws {
        #expect(try committed("wiring.svg") == WiringDiagram.svg(for: pins, source: "tictactoe.toml"))
    }

    @Test("the header table is exactly what the pin map generates")
    func headerUpToDate() throws {
        #expect(try committed("header.md") == HeaderTable.markdown(for: pins, source: "tictactoe.toml"))
    }

    @Test("every line of the pin map appears once on the header, in its group's colour")
    func headerCoversThePinMap() {
        let header = HeaderPin.header(for: pins)
        #expect(header.count == 40)
        let wiredLines = header.compactMap { pin -> LineOffsetName? in
            if case .gpio(let offset) = pin.kind, pin.isWired { return LineOffsetName(offset.rawValue) }
            return nil
        }
        #expect(Set(wiredLines) == Set((pins.inputOffsets + pins.outputOffsets).map { LineOffsetName($0.rawValue) }))
        #expect(header.first { $0.number == 8 }?.function == "reserved: the serial console (TXD)")
        #expect(header.first { $0.number == 27 }?.function == "reserved: the HAT EEPROM bus (ID_SD)")
    }

    @Test("the resistor arithmetic keeps every pin and the total within the Pi's limits")
    func electrical() {
        let e = Electrical.standard
        #expect(Electrical.ohms(e.redColumnResistor) == "270 Ω")
        #expect(Electrical.ohms(e.greenColumnResistor) == "220 Ω")
        #expect(Electrical.ohms(e.redStatusResistor) == "270 Ω")
        #expect(Electrical.ohms(e.greenStatusResistor) == "220 Ω")
        #expect(Electrical.ohms(e.baseResistor) == "1.8 kΩ")
        #expect(e.worstCaseTotal < 0.050)
        let perColumn = (e.supply - e.greenForwardVoltage - e.transistorSaturation) / e.greenColumnResistor
        #expect(perColumn <= e.columnCurrent)
    }

    @Test("the hardware notes quote the computed values")
    func notesAgree() throws {
        let notes = try committed("README.md")
        let e = Electrical.standard
        for value in [e.redColumnResistor, e.greenColumnResistor, e.baseResistor] {
            #expect(notes.contains(Electrical.ohms(value)))
        }
        #expect(notes.contains(Electrical.milliamps(e.worstCaseTotal)))
    }
}

private typealias LineOffsetName = UInt32
