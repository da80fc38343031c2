#if canImport(Glibc)
import Glibc
#endif

/// Where the configuration file lives, written once for every command that reads it. The
/// systemd units, the packages and the manuals name the same path; a test holds them to it.
public enum InstalledConfiguration {
    /// Where the packages and `make install` put the file, and where commands look without
    /// `--config`.
    public static let path = "/etc/tictactoe/tictactoe.toml"

    /// The project's copy, every key at its default: what a message points a person to.
    public static let projectCopy = "Hardware/tictactoe.toml"

    /// ``path`` when a file is there; nil when there is none, and the built-in defaults apply.
    public static var pathIfPresent: String? {
        access(path, F_OK) == 0 ? path : nil
    }
}
