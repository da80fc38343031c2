import Lights

extension Light {
    /// The light in words, colour included: "red, full, steady"; "green, dim (one frame in 6),
    /// steady"; "amber, full, flickers (50 ms on, as long off, for 400 ms), red full between".
    public func words(timings: GameTimings = GameTimings(), dimCycle: DimCycle = .standard) -> String {
        func level(_ brightness: Brightness) -> String {
            switch brightness {
            case .full: "full"
            case .half: "half (\(dimCycle.litFrames(of: .half)) frames in \(dimCycle.frames))"
            case .dim: "dim (\(dimCycle))"
            }
        }
        var text = "\(color), \(level(brightness)), \(patternWords(timings))"
        if betweenColor.isLit { text += ", \(betweenColor) \(level(betweenBrightness)) between" }
        return text
    }

    /// The light as an eye without colour takes it in: how bright (both dies of a cell at once
    /// are brighter than either alone) and its pattern in time.
    public func wordsWithoutColour(timings: GameTimings = GameTimings()) -> String {
        var text = "\(Self.level(color, brightness)), \(patternWords(timings))"
        if pattern != .steady {
            text += betweenColor.isLit ? ", \(Self.level(betweenColor, betweenBrightness)) between" : ", dark between"
        }
        return text
    }

    private static func level(_ color: LEDColor, _ brightness: Brightness) -> String {
        if color == .amber { return "brightest (both dies)" }
        switch brightness {
        case .full: return "bright"
        case .half: return "half bright"
        case .dim: return "dim"
        }
    }

    private func patternWords(_ timings: GameTimings) -> String {
        switch pattern {
        case .steady: "steady"
        case .blink: "blinks (\(timings.blinkHalfPeriod.wordsInMilliseconds) on, as long off)"
        case .flicker:
            "flickers (\(timings.flickerHalfPeriod.wordsInMilliseconds) on, as long off, for \(timings.illegalFlash.wordsInMilliseconds))"
        }
    }
}

extension Duration {
    /// "400 ms".
    var wordsInMilliseconds: String {
        let (seconds, attoseconds) = components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    /// "15 min" for whole minutes, else "90 s" (a configured wait, in whole seconds).
    var wordsInMinutes: String {
        let seconds = components.seconds
        return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
    }
}
