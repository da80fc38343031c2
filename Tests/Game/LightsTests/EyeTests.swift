import Testing
import Lights

@Suite("Eyes and the LEDs' light")
struct EyeTests {
    @Test("the luminosities at tabulated wavelengths are CVRL's CIE 2006 values")
    func tabulated() {
        // V*(555) (its peak step), l̄(570) (the L cone's peak), m̄(545) (the M cone's), and the
        // red dies' end: m̄(625), l̄(625), V*(625).
        #expect(Eye.normal.luminosity(at: 555) == 0.999461)
        #expect(Eye.deutan.luminosity(at: 570) == 0.999993)
        #expect(Eye.protan.luminosity(at: 545) == 0.997193)
        #expect(Eye.protan.luminosity(at: 625) == 0.0855872)
        #expect(Eye.deutan.luminosity(at: 625) == 0.479941)
        #expect(Eye.normal.luminosity(at: 625) == 0.360924)
        #expect(Eye.wavelengths == 490...700)
    }

    @Test("between the steps the luminosity is interpolated linearly")
    func interpolated() {
        let midway = (0.0855872 + 0.062112) / 2
        #expect(abs(Eye.protan.luminosity(at: 627.5) - midway) < 1e-12)
        let fifth = 0.360924 + (0.298086 - 0.360924) / 5
        #expect(abs(Eye.normal.luminosity(at: 626) - fifth) < 1e-12)
        #expect(Eye.normal.luminosity(at: 700) == 0.00419594)
    }

    @Test("the normal eye's V*(λ) is the cones' sum the CIE defines at every step (a mistyped value breaks it)")
    func conesAddUp() {
        // CIE 170-1:2006: V(λ) = 0.68990272 l̄(λ) + 0.34832189 m̄(λ), in these units; the
        // tables are rounded to six figures, so the sum agrees to 3 in a million.
        for wavelength in stride(from: 490.0, through: 700, by: 5) {
            let sum = 0.68990272 * Eye.deutan.luminosity(at: wavelength) + 0.34832189 * Eye.protan.luminosity(at: wavelength)
            let normal = Eye.normal.luminosity(at: wavelength)
            #expect(abs(normal - sum) <= 3e-6 * normal, "at \(wavelength) nm: V* \(normal), cones \(sum)")
        }
    }

    @Test("a die's light for the normal eye is its rated intensity; a protan sees a 625 nm red at about a quarter of a 570 nm green's share")
    func dieLight() {
        let part = LEDPart(
            red: LEDDie(dominantWavelength: 625, luminousIntensity: 10), green: LEDDie(dominantWavelength: 570, luminousIntensity: 10))
        #expect(abs(part.light(of: .red, for: .normal) - 10) < 1e-9)
        #expect(abs(part.light(of: .green, for: .normal) - 10) < 1e-9)
        let protan = part.light(of: .red, for: .protan) / part.light(of: .green, for: .protan)
        #expect(abs(protan - (0.0855872 / 0.360924) / (0.813509 / 0.973261)) < 1e-9)
        #expect(protan > 0.25 && protan < 0.3)
        let deutan = part.light(of: .red, for: .deutan) / part.light(of: .green, for: .deutan)
        #expect(deutan > 1.25 && deutan < 1.35, "a deutan sees green somewhat darker: \(deutan)")
        #expect(part.light(showing: .amber, for: .protan) == part.light(of: .red, for: .protan) + part.light(of: .green, for: .protan))
        #expect(part.light(showing: .off, for: .deutan) == 0)
    }
}
