import Devices
import Presentation
import TicTacToe

/// Everything that configures one board: wiring, timings, player names and the opponent.
public struct BoardSettings: Sendable, Hashable {
    public var pins: PinMap
    public var buttons: ButtonTimings
    public var game: GameTimings
    /// How long each matrix row stays lit; a full frame takes three rows.
    public var scanRowPeriod: Duration
    public var players: PlayerNames
    /// Who plays O when there is no saved game to carry on from (a saved game keeps its own).
    public var opponent: Opponent

    public init(
        pins: PinMap = .standard, buttons: ButtonTimings = ButtonTimings(), game: GameTimings = GameTimings(),
        scanRowPeriod: Duration = .microseconds(500), players: PlayerNames = PlayerNames(), opponent: Opponent = .person
    ) {
        self.opponent = opponent
        self.pins = pins
        self.buttons = buttons
        self.game = game
        self.scanRowPeriod = scanRowPeriod
        self.players = players
    }

    /// Below this many full frames a second the eye sees the matrix flicker.
    public static let minimumFrameRate = 100

    /// The longest row period that keeps ``minimumFrameRate``: three rows make a frame.
    public static let longestScanRow: Duration = .seconds(1) / (3 * minimumFrameRate)

    /// Full matrix frames per second at this row period.
    public var scanFrameRate: Double {
        1 / (3 * Double(scanRowPeriod.nanoseconds) / 1e9)
    }
}
