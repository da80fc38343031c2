/// How dim O's marks and status LED are: lit in one frame of every ``frames`` of the row scan
/// and dark in the others, chosen from the LED part so that every eye reads X as the brighter.
///
/// ## The margin
/// X's red die lit steadily must give at least ``margin`` times the light of O's green die lit
/// one frame in ``frames``, for each ``Eye``: the normal eye, the protanope (to whom the red is
/// darkest) and the deuteranope. Perceived brightness grows roughly as the square root (a small
/// source, as an LED is) to the cube root (a larger field) of the light, so 3:1 in light looks
/// 1.4 to 1.7 times as bright: a step that reads at a glance, without a second cell to compare
/// with, where 2:1 (1.3 to 1.4 times) is a difference one has to look for. More would dim O
/// further for everyone than any eye needs.
///
/// ## The choice
/// ``init(for:)`` takes the fewest frames that keep the margin: O as bright as it can be, and
/// refreshed as often as it can be. Never fewer than two, or O would not be dim at all. Whether
/// the scan refreshes a cycle that long often enough is the board's settings' to judge (they
/// know the row period); the cycle only knows the light.
public struct DimCycle: Sendable, Hashable, CustomStringConvertible {
    /// A dim LED is lit in one frame of this many.
    public let frames: Int

    /// X's light over O's, for every eye, that the cycle keeps at least.
    public static let margin = 3.0
    /// The shortest cycle there is: lit one frame in two.
    public static let fewestFrames = 2

    /// A cycle of `frames` frames; at least ``fewestFrames`` (checked).
    public init(frames: Int) {
        guard frames >= Self.fewestFrames else { fatalError("DimCycle: lit one frame in \(frames)? At least \(Self.fewestFrames).") }
        self.frames = frames
    }

    /// The shortest cycle that keeps X at least ``margin`` times as bright as O for every eye
    /// with `part`.
    public init(for part: LEDPart) {
        // The frames that one eye needs: margin × green / red, rounded up (less a rounding
        // error's worth, so that an exact ratio is not pushed a frame too far).
        let most = Self.framesNeeded(by: Self.hardestEye(with: part), with: part)
        self.init(frames: max(Self.fewestFrames, Int((most - 1e-9).rounded(.up))))
    }

    /// The eye that needs the longest cycle with `part`: the one that sees its red darkest
    /// beside its green (with a red die, the protan's).
    public static func hardestEye(with part: LEDPart) -> Eye {
        Eye.allCases.max { framesNeeded(by: $0, with: part) < framesNeeded(by: $1, with: part) } ?? .normal
    }

    /// The frames, not yet whole, for which O lit one frame in them gives `eye` a ``margin``th
    /// of X's light.
    private static func framesNeeded(by eye: Eye, with part: LEDPart) -> Double {
        margin * part.light(of: .green, for: eye) / part.light(of: .red, for: eye)
    }

    /// The cycle of ``LEDPart/standard``.
    public static let standard = DimCycle(for: .standard)

    /// The frames of each cycle in which an LED of `brightness` is lit, from the cycle's first:
    /// all, half of them rounded up (so with a two-frame cycle, half is dim), or one.
    public func litFrames(of brightness: Brightness) -> Int {
        switch brightness {
        case .full: frames
        case .half: (frames + 1) / 2
        case .dim: 1
        }
    }

    /// The share of frames in which an LED of `brightness` is lit.
    public func duty(of brightness: Brightness) -> Double {
        Double(litFrames(of: brightness)) / Double(frames)
    }

    /// X's light over O's as `eye` takes them in from `part`: the red die lit steadily, the
    /// green one lit one frame in ``frames``.
    public func contrast(for eye: Eye, with part: LEDPart) -> Double {
        part.light(of: .red, for: eye) / (part.light(of: .green, for: eye) * duty(of: .dim))
    }

    public var description: String { "one frame in \(frames)" }
}
