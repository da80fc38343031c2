/// One die of an LED as its datasheet rates it: its dominant wavelength and its luminous
/// intensity at the rated current.
public struct LEDDie: Sendable, Hashable {
    /// Dominant wavelength, nm (the datasheet's λd); must lie in ``Eye/wavelengths``.
    public var dominantWavelength: Double
    /// Luminous intensity, mcd (the datasheet's typical Iv), at the current both dies of the
    /// part are rated at.
    public var luminousIntensity: Double

    /// The luminous intensities a die of a 5 mm indicator LED can be rated at, mcd: a faint
    /// low-current part to the brightest.
    public static let intensities: ClosedRange<Double> = 1...100_000

    public init(dominantWavelength: Double, luminousIntensity: Double) {
        self.dominantWavelength = dominantWavelength
        self.luminousIntensity = luminousIntensity
    }

    /// The light `eye` takes in from this die, lit steadily, in relative units that compare
    /// dies for one eye (for the normal eye, the die's mcd).
    ///
    /// Luminous intensity is radiant intensity already weighed by the normal eye's luminosity,
    /// so the die's radiant output is ∝ intensity / V(λ), and another eye takes in that times
    /// its own luminosity at λ. The die is taken as a line at its dominant wavelength: a red or
    /// green die's spectrum is some 20–35 nm wide, and across it the eyes' ratios change
    /// slowly, so the line gives the ratio to within a few per cent.
    public func light(for eye: Eye) -> Double {
        let wavelength = dominantWavelength
        return luminousIntensity / Eye.normal.luminosity(at: wavelength) * eye.luminosity(at: wavelength)
    }
}

/// The LED part the board is built with: a bi-colour red/green cell of the matrix, whose red
/// die shows X and whose green die shows O. The status LEDs, a single red and a single green
/// LED, are taken to match the cell's dies.
///
/// ``light(of:for:)`` is what decides how dim O must be so that every eye still tells X from O
/// (`DimCycle`), and what the tests' monochrome eyes weigh each die's lit time with.
public struct LEDPart: Sendable, Hashable {
    /// One of the part's two dies.
    public enum Die: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case red, green
        public var description: String { rawValue }

        /// The dominant wavelengths, nm, that a die of this colour has: orange-red (600) to
        /// deep red (700), and blue-green (490, an InGaN "pure green") to yellow-green (580, a
        /// GaP green); within ``Eye/wavelengths``, and apart, so that red is the longer.
        public var wavelengths: ClosedRange<Double> { self == .red ? 600...700 : 490...580 }
    }

    public var red: LEDDie
    public var green: LEDDie

    public init(red: LEDDie, green: LEDDie) {
        self.red = red
        self.green = green
    }

    /// The die `die`.
    public subscript(die: Die) -> LEDDie {
        get { die == .red ? red : green }
        set { if die == .red { red = newValue } else { green = newValue } }
    }

    /// The light `eye` takes in from die `die` lit steadily, relative (``LEDDie/light(for:)``).
    public func light(of die: Die, for eye: Eye) -> Double {
        self[die].light(for: eye)
    }

    /// The light `eye` takes in from a cell showing `color` steadily: the lit dies' together.
    public func light(showing color: LEDColor, for eye: Eye) -> Double {
        (color.isRedLit ? light(of: Die.red, for: eye) : 0) + (color.isGreenLit ? light(of: Die.green, for: eye) : 0)
    }

    /// The part the board documents (Hardware/README.md): a 5 mm common-cathode red/green
    /// bi-colour LED's typical figures.
    public static let standard = LEDPart(
        red: LEDDie(dominantWavelength: 625, luminousIntensity: 40),
        green: LEDDie(dominantWavelength: 570, luminousIntensity: 20))
}
