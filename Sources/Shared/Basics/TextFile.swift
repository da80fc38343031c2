#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Why a text file could not be read or written, in words for the person who named it.
public struct TextFileError: Error, Sendable, Hashable {
    /// "cannot read the file: …", without a final period.
    public var reason: String
    /// The system's error number behind it, if one was (`ENOSPC`, `EROFS`, `EIO`, …): what
    /// tells one kind of failure from another when the same write fails again and again.
    public var code: Int32?

    public init(reason: String, code: Int32? = nil) {
        self.reason = reason
        self.code = code
    }
}

/// Reads small text files (a configuration, a key script) with plain POSIX calls, so that each
/// way of failing gets its own sentence: a missing file, a directory, a FIFO or device, no
/// permission, not UTF-8, too large.
public enum TextFile {
    /// Larger than any configuration or key script a person writes.
    public static let largestSize = 1 << 20

    /// The whole of the regular file at `path`, as UTF-8 text.
    public static func read(_ path: String) throws(TextFileError) -> String {
        try text(readBytes(path))
    }

    /// The whole of the regular file at `path`, as bytes, whatever they hold (the page's PNG
    /// icons), with ``read(_:)``'s sentences for each way of failing and its size limit.
    public static func readBytes(_ path: String) throws(TextFileError) -> [UInt8] {
        guard !path.isEmpty else { throw TextFileError(reason: "cannot read the file: the path is empty") }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw TextFileError(reason: "cannot read the file: \(describeErrno(errno))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw TextFileError(reason: "cannot read the file: \(describeErrno(errno))") }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw TextFileError(reason: "cannot read the file: it is a directory")
        case S_IFIFO: throw TextFileError(reason: "cannot read the file: it is a pipe (FIFO), not a regular file")
        case S_IFCHR, S_IFBLK: throw TextFileError(reason: "cannot read the file: it is a device, not a regular file")
        default: throw TextFileError(reason: "cannot read the file: it is not a regular file")
        }
        return try readAllBytes(fd)
    }

    /// Everything readable from `fd` until its end, as UTF-8 text (standard input, say).
    public static func readAll(_ fd: Int32) throws(TextFileError) -> String {
        try text(readAllBytes(fd))
    }

    /// `bytes` as UTF-8 text, or the sentence saying they are not.
    private static func text(_ bytes: [UInt8]) throws(TextFileError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TextFileError(reason: "cannot read the file: it is not UTF-8 text")
        }
        return text
    }

    /// Everything readable from `fd` until its end, as bytes.
    static func readAllBytes(_ fd: Int32) throws(TextFileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A non-blocking descriptor with nothing yet: wait until it has something.
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&poller, 1, -1)
                    continue
                }
                throw TextFileError(reason: "cannot read the file: \(describeErrno(errno))")
            }
            bytes += chunk[..<count]
            if bytes.count > largestSize {
                throw TextFileError(reason: "cannot read the file: it is larger than \(largestSize / 1024) KiB, far more than any configuration, key script or page file")
            }
        }
        return bytes
    }

    /// The system's sentence for an error number, lower-cased as part of a sentence.
    public static func describeErrno(_ number: Int32) -> String {
        let text = String(cString: strerror(number))
        guard let first = text.first else { return "error \(number)" }
        return first.lowercased() + text.dropFirst()
    }
}

extension TextFile {
    /// Replaces the file at `path` with `text` atomically (see ``write(bytes:to:)``).
    public static func write(_ text: String, to path: String) throws(TextFileError) {
        try write(bytes: Array(text.utf8), to: path)
    }

    /// Replaces the file at `path` with `bytes` so that a crash or power cut leaves either the
    /// old file or the new one, never a mix: written to a temporary file beside it
    /// (``temporaryPath(for:attempt:)``), flushed, renamed over it, and the directory flushed so
    /// that the rename itself survives.
    ///
    /// Each write takes a temporary name of its own, created anew and exclusively
    /// (`O_EXCL | O_NOFOLLOW`): whatever stands at a name (a crash's leftover, a directory or a
    /// link planted there) is passed over for the next name, never removed, written through or
    /// fatal, so nothing at one name can stop saving or make the write reach a file a link names.
    ///
    /// `permissions`: the file's mode whatever the process's umask (a file another user reads).
    public static func write(bytes: [UInt8], to path: String, permissions: mode_t? = nil) throws(TextFileError) {
        guard !path.isEmpty else { throw TextFileError(reason: "cannot write the file: the path is empty") }
        var temporary = "", fd: Int32 = -1
        for _ in 0..<100 {
            temporary = temporaryPath(for: path, attempt: temporaryNames.add(1, ordering: .relaxed).newValue)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            let failure = errno
            var status = stat()
            if failure == ENOENT, stat(directory(of: path), &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                // The folder is there but makes no new files: /proc, /sys and their like.
                throw TextFileError(reason: "cannot write the file: its folder takes no new files (as /proc and /sys do not)", code: failure)
            }
            if failure == EEXIST {
                throw TextFileError(reason: "cannot write the file: a hundred temporary names beside it are taken", code: failure)
            }
            throw TextFileError(reason: "cannot write the file: \(describeErrno(failure))", code: failure)
        }
        var failure: Int32?
        if let permissions, fchmod(fd, permissions) != 0 { failure = errno }
        if failure == nil && (!writeAll(fd, bytes) || fsync(fd) != 0) { failure = errno }
        if close(fd) != 0 && failure == nil { failure = errno }
        if failure == nil && rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw TextFileError(reason: "cannot write the file: \(describeErrno(failure))", code: failure)
        }
        try syncDirectory(of: path, after: "the file was written")
    }

    /// Removes the file at `path` (a link itself, never what it names) so that a power cut
    /// cannot bring it back: the directory is flushed after. Nothing there is no failure.
    public static func remove(_ path: String) throws(TextFileError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw TextFileError(reason: "cannot remove \(path.shownPath): \(describeErrno(errno))", code: errno)
        }
        try syncDirectory(of: path, after: "\(path.shownPath) was removed")
    }

    /// Flushes the directory `path` is in, so that a rename or removal in it survives a power
    /// cut; `done` says what was done before, for the message when it fails.
    public static func syncDirectory(of path: String, after done: String) throws(TextFileError) {
        // EINVAL: a file system that has nothing to flush for a directory.
        let directoryFD = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0, fsync(directoryFD) == 0 || errno == EINVAL else {
            let failure = errno
            if directoryFD >= 0 { close(directoryFD) }
            throw TextFileError(reason: "\(done), but its directory could not be flushed, so a power cut may undo it: \(describeErrno(failure))", code: failure)
        }
        close(directoryFD)
    }

    /// Counts the temporary names this process has taken, so that no two writes share one. Not
    /// the process id in the name: a name a test can predict (the first write's is `-1`) is
    /// worth more than one unique across processes, which `O_EXCL` makes needless (a name
    /// another process holds is passed over) and the removal of leftovers at start makes rare.
    static let temporaryNames = Atomic<Int>(0)

    /// The text before the number in ``temporaryPath(for:attempt:)``: `state.json.tmp-`.
    static func temporaryPrefix(for path: String) -> String { path + ".tmp-" }

    /// Where a write of `path` writes its contents before renaming them over it: `path.tmp-N`,
    /// a number of its own per write.
    public static func temporaryPath(for path: String, attempt: Int) -> String { temporaryPrefix(for: path) + String(attempt) }

    /// Whether `name` (without its folder) is one a write of the file named `file` uses for its
    /// temporary contents: `state.json.tmp-` and digits, or `state.json.tmp` (the one name
    /// versions before 0.9 used).
    static func isTemporaryName(_ name: String, of file: String) -> Bool {
        if name == file + ".tmp" { return true }
        let prefix = file + ".tmp-"
        guard name.hasPrefix(prefix) else { return false }
        let number = name.dropFirst(prefix.count)
        return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The names in folder `path` (not `.` and `..`), in no order; nil when it is no folder or
    /// cannot be read.
    public static func names(in path: String) -> [String]? {
        guard let stream = opendir(path) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The temporary files that writes of `paths` interrupted by a crash or a power cut left
    /// beside them (see ``isTemporaryName(_:of:)``), by full path, sorted; only regular files and
    /// links: a directory at such a name is not one (nothing this program makes) and is left
    /// alone. One listing per directory: a start reads its state directory once.
    public static func leftovers(of paths: [String]) -> [String] {
        var found: [String] = []
        for (folder, files) in Dictionary(grouping: paths, by: { directory(of: $0) }) {
            let names = Set(files.map { path in path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path })
            for name in self.names(in: folder) ?? [] {
                guard names.contains(where: { isTemporaryName(name, of: $0) }) else { continue }
                let full = (files[0].contains("/") ? folder + "/" : "") + name
                var status = stat()
                guard lstat(full, &status) == 0, [S_IFREG, S_IFLNK].contains(status.st_mode & S_IFMT) else { continue }
                found.append(full)
            }
        }
        return found.sorted()
    }

    /// Removes the temporary files that writes of `paths` cut short by a crash or a power cut
    /// left behind (``leftovers(of:)``: a link is removed, never followed; a directory at such a
    /// name is ignored), and returns their paths.
    public static func removeLeftovers(of paths: [String]) throws(TextFileError) -> [String] {
        var removed: [String] = []
        for leftover in leftovers(of: paths) {
            guard unlink(leftover) == 0 || errno == ENOENT else {
                throw TextFileError(reason: "cannot remove \(leftover.shownPath), left by an interrupted save: \(describeErrno(errno))", code: errno)
            }
            removed.append(leftover)
        }
        return removed
    }

    /// Moves whatever stands at `path` (a file, a directory, a link) out of the way, to `path` +
    /// `suffix`, or, when that name is taken, `-2`, `-3`, … after it: never over anything.
    /// Returns where it went; throws, having moved nothing, when it cannot be moved.
    ///
    /// A rename that refuses to replace (`renameat2` with `RENAME_NOREPLACE`), not a hard link:
    /// a link is refused for another user's file under `fs.protected_hardlinks`, for a
    /// directory, and on file systems without links (vfat). Where the kernel or the file system
    /// has no `RENAME_NOREPLACE` (`EINVAL`), a plain rename to a name seen free just before.
    public static func setAside(
        _ path: String, suffix: String, move: (String, String) -> Int32 = renameWithoutReplacing
    ) throws(TextFileError) -> String {
        for attempt in 1...1000 {
            let aside = path + suffix + (attempt == 1 ? "" : "-\(attempt)")
            if move(path, aside) == 0 { return aside }
            guard errno == EEXIST || errno == ENOTEMPTY else {
                throw TextFileError(reason: "cannot move it aside to \(aside.shownPath): \(describeErrno(errno))", code: errno)
            }
        }
        throw TextFileError(reason: "cannot move it aside: a thousand files are already set aside beside it")
    }

    /// `renameat2(from, to, RENAME_NOREPLACE)`: 0, or -1 with `errno` (`EEXIST` when `to` is
    /// taken). Looked up at run time: Glibc's module does not declare it, and a C library
    /// without it is a system without the flag, met by the fallback.
    public static func renameWithoutReplacing(_ from: String, _ to: String) -> Int32 {
        renameWithoutReplacing(from, to, renameat2: renameat2Function)
    }

    /// ``renameWithoutReplacing(_:_:)`` with the system's `renameat2` given (a test's seam).
    static func renameWithoutReplacing(_ from: String, _ to: String, renameat2: RenameAt2?) -> Int32 {
        if let renameat2 {
            if renameat2(AT_FDCWD, from, AT_FDCWD, to, renameNoReplace) == 0 { return 0 }
            guard errno == EINVAL || errno == ENOSYS else { return -1 }
        }
        var status = stat()
        guard lstat(to, &status) != 0 else {
            errno = EEXIST
            return -1
        }
        guard errno == ENOENT else { return -1 }
        return rename(from, to)
    }

    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// `RENAME_NOREPLACE` from linux/fs.h: part of the kernel's ABI, so it never changes.
    private static let renameNoReplace: UInt32 = 1
    private static let renameat2Function: RenameAt2? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()

    /// The directory `path` is in: "." for a bare name.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes all of `bytes` to `fd`, however many calls it takes. Returns false on an error
    /// (`errno` says which).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// Makes the directory at `path` and any missing parents, like `mkdir -p`.
    public static func makeDirectory(_ path: String) throws(TextFileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw TextFileError(reason: "cannot make the directory \(prefix.dropLast()): \(describeErrno(errno))")
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw TextFileError(reason: "\(path) exists but is not a directory")
        }
    }

    /// A new directory of this process's own under `$TMPDIR` (else `/tmp`), named
    /// `<prefix>.XXXXXX` by mkdtemp.
    public static func makeTemporaryDirectory(prefix: String) throws(TextFileError) -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/" + prefix + ".XXXXXX").utf8CString)
        // mkdtemp fills in the template in place; the pointer it returns is the template's, valid
        // only inside this closure, so the name is read from the array afterwards.
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkdtemp($0) != nil } ?? false }
        guard made else {
            throw TextFileError(reason: "cannot make a directory under \(base): \(describeErrno(errno))")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
