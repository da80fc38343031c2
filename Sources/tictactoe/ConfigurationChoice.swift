import BoardConfiguration
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a command's configuration comes from: the file given, else the installed one if it
/// exists, else the built-in default wiring (`source` nil). A bad file exits 78 with its message.
func chooseConfiguration(_ path: String?) throws -> (configuration: Configuration, source: String?) {
    guard let file = path ?? (FileManager.default.fileExists(atPath: Run.defaultConfig) ? Run.defaultConfig : nil) else {
        return (Configuration(), nil)
    }
    do {
        return (try Configuration.load(file: file), file)
    } catch {
        printError(error.description)
        throw ExitStatus.badConfiguration
    }
}
