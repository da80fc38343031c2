/// The few spectral functions the LEDs' light is weighed with, embedded so that the program
/// reads nothing at run time: every 5 nm from ``first`` to ``last`` nm, the span a red or
/// green LED's dominant wavelength can have (an InGaN "pure green" near 500 nm to a deep red
/// near 700 nm), in energy units, linear, each peaking at 1.
///
/// Source: the CIE 2006 physiologically based 2° observer (CIE 170-1:2006), that is the
/// Stockman & Sharpe (2000) 2° cone fundamentals l̄(λ), m̄(λ) and the luminosity function
/// V*(λ) built from them (CIE 2008 "physiologically relevant" 2° LEF, Sharpe, Stockman, Jagla
/// & Jägle 2005, which is 1.55 l̄ + m̄ rescaled to peak 1), as the Colour & Vision Research
/// Laboratory (CVRL, UCL) tabulates them at 1 nm; taken at every fifth nm, to CVRL's six
/// significant figures. One family throughout: the normal eye's V* and the dichromats' single
/// cones agree about the same eye, so that a ratio within one eye means the same in each.
/// `spectral/test_spectral_tables.py` compares every value here with the copy that the
/// `colour-science` package ships (`make spectral-test`, part of `make test`).
enum SpectralTables {
    /// The first and last wavelength tabulated, and the step, in nm.
    static let first = 490.0
    static let last = 700.0
    static let step = 5.0

    /// V*(λ): the normal (trichromatic) eye's luminosity.
    static let photopic: [Double] = [
        0.237916, 0.285068, 0.348354, 0.42776, 0.520497, 0.620626, 0.718089, 0.794645,
        0.85758, 0.907135, 0.954468, 0.981411, 0.989023, 0.999461, 0.996774, 0.990255,
        0.973261, 0.942457, 0.896361, 0.85872, 0.811587, 0.754479, 0.691855, 0.627007,
        0.558375, 0.489595, 0.42299, 0.360924, 0.298086, 0.24169, 0.194312, 0.15474,
        0.119312, 0.0897959, 0.0667104, 0.048997, 0.0355998, 0.0255422, 0.0180794, 0.0126157,
        0.00866128, 0.00602768, 0.00419594,
    ]

    /// l̄(λ): the long-wavelength (L) cone's sensitivity, all the luminosity a deuteranope has.
    static let longCone: [Double] = [
        0.191556, 0.232926, 0.288959, 0.359716, 0.443683, 0.536494, 0.628561, 0.70472,
        0.77063, 0.825711, 0.881011, 0.919067, 0.940198, 0.965733, 0.981445, 0.994486,
        0.999993, 0.99231, 0.969429, 0.955602, 0.927673, 0.885969, 0.833982, 0.775103,
        0.705713, 0.630773, 0.554224, 0.479941, 0.400711, 0.327864, 0.265784, 0.213284,
        0.165141, 0.124749, 0.0930085, 0.06851, 0.0498661, 0.0358233, 0.025379, 0.0177201,
        0.0121701, 0.0084717, 0.00589749,
    ]

    /// m̄(λ): the middle-wavelength (M) cone's sensitivity, all the luminosity a protanope has.
    static let middleCone: [Double] = [
        0.30363, 0.357061, 0.427764, 0.515587, 0.61552, 0.719154, 0.81661, 0.88555,
        0.935687, 0.968858, 0.995217, 0.997193, 0.977193, 0.956583, 0.91775, 0.873205,
        0.813509, 0.740291, 0.653274, 0.572597, 0.492599, 0.411246, 0.334429, 0.264872,
        0.205273, 0.156243, 0.116641, 0.0855872, 0.062112, 0.0444879, 0.0314282, 0.0218037,
        0.015448, 0.010712, 0.00730255, 0.00497179, 0.00343667, 0.00237617, 0.00163734, 0.00112128,
        0.000761051, 0.000525457, 0.000365317,
    ]

    /// `table` at `wavelength` nm, interpolated linearly between the tabulated steps;
    /// `wavelength` must lie in `first...last` (checked: the configuration refuses others).
    static func value(_ table: [Double], at wavelength: Double) -> Double {
        guard wavelength >= first, wavelength <= last else { outside(wavelength) }
        let position = (wavelength - first) / step
        let below = min(Int(position), table.count - 2)
        let fraction = position - Double(below)
        return table[below] + (table[below + 1] - table[below]) * fraction
    }

    static func outside(_ wavelength: Double) -> Never {
        fatalError("SpectralTables: \(wavelength) nm is outside the tables' \(first)...\(last) nm")
    }
}
