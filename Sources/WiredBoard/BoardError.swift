import Devices
import GPIO
import Reactive

/// Why a board could not start, worded for the maker at the board.
public enum BoardError: Error, Sendable, CustomStringConvertible {
    case pinMap(PinMapError)
    case gpio(GPIOError)
    /// The scan is too slow for the eye to see a steady matrix.
    case scanTooSlow(frameRate: Double)

    public var description: String {
        switch self {
        case .pinMap(let error): "pin map: \(error)"
        case .gpio(let error): "GPIO: \(error)"
        case .scanTooSlow(let rate):
            "scan row period gives \(Int(rate)) frames per second; the matrix flickers below \(BoardSettings.minimumFrameRate). Use a row period of at most \(BoardSettings.longestScanRow.nanoseconds / 1000) µs."
        }
    }
}
