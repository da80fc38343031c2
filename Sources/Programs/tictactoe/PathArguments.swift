import ArgumentParser
import Basics
import BoardMemory
import BoardProtocol
import SystemdService
#if canImport(Glibc)
import Glibc
#endif

/// The checks of `--socket` and `--state-dir`, made by `run` and `simulate --serve` before
/// anything on disk is touched: a bad socket path found only once the board has started would
/// come after the state file was read, set aside and saved.
enum PathArguments {
    /// The longest socket path a `sockaddr_un` holds, in bytes (108 with its final zero).
    static let longestSocketPath = 107

    /// Throws a usage error naming the option when `path` cannot be a socket's path: empty, too
    /// long, in a folder that does not exist, or naming something that is not a socket (which
    /// would never be replaced).
    static func checkSocket(_ path: String?, option: String = "--socket") throws(ValidationError) {
        guard let path else { return }
        guard !path.isEmpty else { throw ValidationError("\(option) is empty; give the path of the socket to make, such as \(BoardSocket.defaultPath).") }
        guard path.utf8.count <= longestSocketPath else {
            throw ValidationError("\(option) is \(path.utf8.count) bytes long (\(path.shownPath)); a socket's path must be 1 to \(longestSocketPath) bytes.")
        }
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw ValidationError("\(option) is \(path.shownPath), but \(folder.shownPath) is no directory; give a socket path in an existing directory.")
        }
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFSOCK {
            throw ValidationError("\(option) is \(path.shownPath), which is there and is not a socket; give a path that is free or a socket's.")
        }
    }

    /// Throws a usage error when `--state-dir` was given empty.
    static func checkStateDirectory(_ path: String?, option: String = "--state-dir") throws(ValidationError) {
        if path?.isEmpty == true {
            throw ValidationError("\(option) is empty; give the directory where the game is kept, such as \(BoardMemory.serviceDirectory).")
        }
    }
}
