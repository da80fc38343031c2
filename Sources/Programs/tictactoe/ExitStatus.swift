import ArgumentParser
import BoardAPI
import BoardMemory
import BoardProtocol
import GPIO
import SystemdService
import WiredBoard

/// The exit statuses, from BSD's sysexits where one fits, so scripts can tell failures apart.
enum ExitStatus {
    /// A bad key in a script on standard input (EX_DATAERR).
    static let badScript = ExitCode(65)
    /// The board could not start: bad pin map or a GPIO error (EX_CONFIG / EX_UNAVAILABLE).
    static let badPinMap = ExitCode(78)
    static let gpioUnavailable = ExitCode(69)
    /// Standard input could not be read, or standard output written (EX_IOERR).
    static let inputError = ExitCode(74)
    /// A line is held by another program: try again once it is stopped (EX_TEMPFAIL).
    static let lineBusy = ExitCode(75)
    /// A bad configuration file (EX_CONFIG).
    static let badConfiguration = ExitCode(78)
    /// The state directory cannot be made (EX_CANTCREAT).
    static let cannotCreate = ExitCode(73)
    /// Not allowed to open the chip, or the board's socket (EX_NOPERM).
    static let permissionDenied = ExitCode(77)
    /// No board listens on the socket (EX_UNAVAILABLE).
    static let boardUnavailable = ExitCode(69)
    /// `tictactoe boards` found no `tictactoe-network` to run (EX_UNAVAILABLE).
    static let linkNotInstalled = ExitCode(69)
    /// The board refused a command: a taken cell, the computer's turn (EX_DATAERR).
    static let refused = ExitCode(65)
    /// A lesson given way to a game against the learner at the board, or to a reset: teach it
    /// again later (EX_TEMPFAIL).
    static let lessonInterrupted = ExitCode(75)
    /// A command that loses what cannot be got back, run without its confirmation (EX_USAGE).
    static let notConfirmed = ExitCode(64)
    /// A saved file the board could not use (EX_DATAERR).
    static let unusableState = ExitCode(65)
    /// The board's memory was written by a newer version: install it again, or move the file
    /// away (beyond sysexits: a refusal of its own, which systemd does not restart).
    static let newerMemory = ExitCode(79)
    /// The board's memory cannot be read for a reason other than its contents (EX_NOINPUT).
    static let unreadableMemory = ExitCode(66)
    /// A part of the running board failed after the start, the LED lines failing for good: the
    /// board stopped, and systemd starts it again (EX_OSERR: the system failed it).
    static let partFailed = ExitCode(71)
    /// Stopping overran its deadline: a part did not stop and the process exits without it
    /// (EX_SOFTWARE: a part of the board's own misbehaved).
    static let stopOverran = ExitCode(70)

    static func `for`(_ error: GPIOError) -> ExitCode {
        switch error {
        case .lineBusy: lineBusy
        case .permissionDenied: permissionDenied
        default: gpioUnavailable
        }
    }

    /// A failure to start or drive the board, told to the user and turned into its exit
    /// status; any other error passes through unchanged.
    static func reporting(_ error: any Error) -> any Error {
        switch error {
        case let error as GPIOError:
            printError(error.description)
            return self.for(error)
        case let error as BoardError:
            printError(error.description)
            return self.for(error)
        case let error as UnixSocket.Failure:
            printError("the board's API socket: \(error). Give a path in a writable directory (run's --socket, simulate's --serve), or stop the board already listening there.")
            return error.isPermissionDenied ? permissionDenied : cannotCreate
        case let error as ListenedSocket.Failure:
            printError("\(error).")
            return badConfiguration
        case let error as MemoryError:
            switch error {
            case .newer:
                printError("\(error).")
                return newerMemory
            case .unreadable:
                printError("\(error). Run as the board's user (tictactoe) or root.")
                return unreadableMemory
            case .unwritable:
                printError("the state directory: \(error). Give a writable --state-dir.")
                return cannotCreate
            }
        case is ServiceGroup.PartFailed:
            // Logged (critical) by the service as it happened.
            return partFailed
        case let overran as ServiceGroup.StopOverran:
            // Logged (critical) by the service, naming the part. A failed start that began the
            // stop is told too (a part's failure was logged as it came).
            if let cause = overran.cause, !(cause is ServiceGroup.PartFailed) { _ = reporting(cause) }
            return stopOverran
        default:
            return error
        }
    }

    static func `for`(_ error: BoardError) -> ExitCode {
        switch error {
        case .pinMap, .scanTooSlow: badPinMap
        case .gpio(let error): self.for(error)
        }
    }
}
