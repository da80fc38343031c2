import Devices
import GPIO
import Lights

/// Why a board could not start, worded for the maker at the board.
public enum BoardError: Error, Sendable, CustomStringConvertible {
    case pinMap(PinMapError)
    case gpio(GPIOError)
    /// The scan is too slow for the eye to see steady lights with these settings.
    case scanTooSlow(BoardSettings)

    public var description: String {
        switch self {
        case .pinMap(let error): "pin map: \(error)"
        case .gpio(let error): "GPIO: \(error)"
        case .scanTooSlow(let settings) where settings.marks == .colour:
            "scan row period gives \(Int(settings.scanFrameRate)) frames per second; the matrix flickers below \(BoardSettings.minimumFrameRate). Use a row period of at most \(settings.longestScanRow.nanoseconds / 1000) µs."
        case .scanTooSlow(let settings):
            "scan row period lights O's dim marks \(Int(settings.slowestRefreshRate)) times a second (\(settings.dimCycle), as these LEDs need for X to stay \(Int(DimCycle.margin)) times as bright to every eye); they flicker below \(BoardSettings.minimumFrameRate). Use a row period of at most \(settings.longestScanRow.nanoseconds / 1000) µs, LEDs whose red is brighter beside their green, or marks = \"colour\"."
        }
    }
}
