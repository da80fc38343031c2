import ArgumentParser

/// The exit statuses, from BSD's sysexits where one fits, so scripts can tell failures apart.
enum ExitStatus {
    /// A bad key in a script on standard input (EX_DATAERR).
    static let badScript = ExitCode(65)
    /// The board could not start: bad pin map or a GPIO error (EX_CONFIG / EX_UNAVAILABLE).
    static let badPinMap = ExitCode(78)
    static let gpioUnavailable = ExitCode(69)
    /// Standard input could not be read (EX_IOERR).
    static let inputError = ExitCode(74)
}
