import BoardConfiguration
import ConfigurationFile

/// Where `--config` looks when it is not given, as the commands' help says it.
let configurationDefault = "Default: \(InstalledConfiguration.path) if it exists, else the built-in default wiring."

/// Where a command's configuration comes from: the file given, else the installed one if it
/// exists, else the built-in default wiring (`source` nil). A bad file exits 78 with its message.
func chooseConfiguration(_ path: String?) throws -> (configuration: Configuration, source: String?) {
    guard let file = path ?? InstalledConfiguration.pathIfPresent else {
        return (Configuration(), nil)
    }
    do {
        return (try Configuration.load(file: file), file)
    } catch {
        printError(error.description)
        throw ExitStatus.badConfiguration
    }
}
