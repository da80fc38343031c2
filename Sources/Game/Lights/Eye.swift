/// Whose eye looks at the board: how much of a light of one wavelength it takes in.
///
/// Three eyes bound everyone the marks are for: the normal trichromat, and the two red–green
/// dichromats, who have lost one cone class and see by the other alone. A protanope (no L
/// cones, about 1 man in 100) sees a deep red far darker than others do; a deuteranope (no M
/// cones, about 1 in 100 too) sees green somewhat darker. The anomalous trichromats (the other
/// six in 100) have a shifted cone, and their luminosity lies between the normal eye's and the
/// dichromat's of their kind, so a cue that holds for these three holds for them.
///
/// ``luminosity(at:)`` is relative: it compares lights of different wavelengths for one eye,
/// never one eye with another (SpectralTables has the source and the units).
public enum Eye: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case normal, protan, deutan

    /// The wavelengths, in nm, that the eyes' luminosities are known for here.
    public static let wavelengths: ClosedRange<Double> = SpectralTables.first...SpectralTables.last

    /// How bright light of `wavelength` nm looks to this eye per unit of radiant power,
    /// relative (the normal eye's peak is 1, and so is each cone's); `wavelength` must lie in
    /// ``wavelengths``.
    public func luminosity(at wavelength: Double) -> Double {
        SpectralTables.value(table, at: wavelength)
    }

    private var table: [Double] {
        switch self {
        case .normal: SpectralTables.photopic
        case .protan: SpectralTables.middleCone
        case .deutan: SpectralTables.longCone
        }
    }

    public var description: String { rawValue }
}
