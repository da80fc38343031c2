import ConfigurationFile
import Devices
import GPIO
import ViewModel
import WiredBoard

/// The board's configuration file: the chip, the pin map with its polarities, timings and
/// player names. `Hardware/tictactoe.toml` is the file the package installs (the previous
/// release's); ``ConfigurationSchema/defaultFile`` documents every key.
///
/// ``load(file:)`` refuses a file the board cannot work with and says why: unknown keys, wrong
/// types, wrong counts, a line used twice, reserved lines, LEDs on GPIO2/3, impossible timings.
/// Every message names the key and the file line, and what to do.
public struct Configuration: Sendable, Hashable {
    /// The chip to open: a path, name or label; `nil` for "auto" (the Pi's header chip).
    public var chip: String?
    public var settings: BoardSettings
    /// The web view's settings (`[web]`), which the board itself does not use.
    public var web: WebSettings
    /// The link to a broker's settings (`[network]`), which the board itself does not use.
    public var network: NetworkSettings

    public init(chip: String? = nil, settings: BoardSettings = BoardSettings(), web: WebSettings = WebSettings(), network: NetworkSettings = NetworkSettings()) {
        self.chip = chip
        self.settings = settings
        self.web = web
        self.network = network
    }

    /// Reads and checks the file at `path`.
    public static func load(file path: String) throws(ConfigurationError) -> Configuration {
        try read(ConfigurationDocument.load(file: path))
    }

    /// Checks configuration `text`; `file` names it in messages.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> Configuration {
        try read(ConfigurationDocument(parsing: text, file: file))
    }

    private static func read(_ document: ConfigurationDocument) throws(ConfigurationError) -> Configuration {
        var reader = ConfigurationReader(document: document)
        return try reader.read()
    }
}
