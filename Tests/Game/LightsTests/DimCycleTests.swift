import Testing
import Lights

@Suite("The dim cycle, from the LED part")
struct DimCycleTests {
    @Test("with the default LEDs every eye gets at least the margin, X's light over O's, and one frame fewer would leave some eye short")
    func defaults() {
        let part = LEDPart.standard, cycle = DimCycle(for: part)
        #expect(cycle == .standard)
        for eye in Eye.allCases {
            #expect(cycle.contrast(for: eye, with: part) >= DimCycle.margin, "\(eye): \(cycle.contrast(for: eye, with: part)) in \(cycle)")
        }
        #expect(cycle.frames > DimCycle.fewestFrames)
        let shorter = DimCycle(frames: cycle.frames - 1)
        #expect(Eye.allCases.contains { shorter.contrast(for: $0, with: part) < DimCycle.margin })
        // The protan eye, to whom a 625 nm red is darkest, is the one that sets it.
        #expect(DimCycle.hardestEye(with: part) == .protan)
    }

    @Test("the cycle is the fewest frames that keep the margin, for parts of every kind (exact ratios not pushed a frame too far)")
    func fewest() {
        for red in stride(from: 600.0, through: 700, by: 10) {
            for green in stride(from: 490.0, through: 580, by: 15) {
                for intensities in [(10.0, 10.0), (40, 20), (500, 2000), (300, 10)] {
                    let part = LEDPart(
                        red: LEDDie(dominantWavelength: red, luminousIntensity: intensities.0),
                        green: LEDDie(dominantWavelength: green, luminousIntensity: intensities.1))
                    let cycle = DimCycle(for: part)
                    let margin = DimCycle.margin * (1 - 1e-9)
                    #expect(Eye.allCases.allSatisfy { cycle.contrast(for: $0, with: part) >= margin }, "\(part): \(cycle)")
                    if cycle.frames > DimCycle.fewestFrames {
                        let shorter = DimCycle(frames: cycle.frames - 1)
                        #expect(Eye.allCases.contains { shorter.contrast(for: $0, with: part) < margin }, "\(part): \(cycle) is not the fewest")
                    }
                }
            }
        }
        // A red that outshines the green needs the shortest cycle there is, never one frame.
        let bright = LEDPart(red: LEDDie(dominantWavelength: 625, luminousIntensity: 1000), green: LEDDie(dominantWavelength: 570, luminousIntensity: 1))
        #expect(DimCycle(for: bright).frames == DimCycle.fewestFrames)
    }

    @Test("a part whose green is ten times as bright gets a cycle about ten times as long")
    func brighterGreen() {
        var part = LEDPart.standard
        let before = DimCycle(for: part).frames
        part.green.luminousIntensity *= 10
        let after = DimCycle(for: part).frames
        #expect(after > before)
        #expect(after >= 10 * before - 10 && after <= 10 * before, "\(before) frames, then \(after)")
    }

    @Test("a dim LED's duty is one frame of the cycle; a full one's every frame")
    func duty() {
        #expect(DimCycle(frames: 6).duty(of: .dim) == 1.0 / 6)
        #expect(DimCycle(frames: 6).duty(of: .full) == 1)
        #expect(DimCycle(frames: 9).description == "one frame in 9")
    }
}
