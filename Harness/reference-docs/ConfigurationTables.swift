import BoardConfiguration
import HardwareDocs

/// docs/CONFIGURATION.md's tables, as the configuration's schema writes them: every key with its
/// default, range and meaning, and X's light over O's for each eye at the default LEDs.
enum ConfigurationTables {
    static var keys: String { ConfigurationSchema.referenceTable }
    static var dimCue: String { ConfigurationSchema.dimCueTable }
}

/// README.md's wiring at a glance: the default pin map's groups of lines, from
/// `Hardware/tictactoe.toml` (whose picture and header table `tictactoe hardware-docs` writes).
enum WiringTable {
    static func markdown(_ repository: Repository) throws -> String {
        let file = repository.root.appendingPathComponent("Hardware/tictactoe.toml").path
        return WiringSummary.markdown(for: try Configuration.load(file: file).settings.pins)
    }
}
