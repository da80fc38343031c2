import Basics
import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ViewModel
#if canImport(Glibc)
import Glibc
#endif

/// The history's file, `history.jsonl`: JSON lines, appended to as games end.
///
/// ```
/// {"version":2}
/// {"game":41,"played":{"finished":"2026-11-23T22:41:05Z","moves":[…],…}}
/// {"game":42,"played":{…}}
/// ```
///
/// The first line names the format; each other line is one finished game with its number.
/// Numbers rise from line to line (a game's number is how the state file names the last game
/// it includes: see ``GameHistory``). A finished game appends one line (a few hundred bytes)
/// and an fsync; the file is rewritten whole (atomically, as the state is) only to compact it
/// (more than ``compactRecords`` lines or ``compactBytes`` bytes: the newest
/// ``GameHistory/capacity`` games are kept), or to drop what a start found it should not keep.
///
/// ## Contract
/// - ``parse(_:)`` is pure: the games oldest first, or why the text cannot be a journal. A last
///   line without its newline is what a power cut during an append leaves: it is dropped and
///   said (``Parsed/torn``), not a refusal. Any other damage refuses the whole file.
/// - ``append(_:to:)`` and ``rewrite(_:to:)`` are the only writes; both leave the file as it
///   was or with the new lines whole, once they return (an append that fails is cut back to the
///   file's old length; what a power cut leaves of one is a torn last line).
public enum HistoryJournal {
    /// The first line's `version`.
    public static let version = 2
    /// The greatest game number: as many games as a score counts (``Score/countLimit``), which
    /// only a forged file comes near; past it a number would overflow.
    public static let gameLimit = Score.countLimit
    /// A journal longer than this many games is compacted at the next write.
    public static let compactRecords = 2 * GameHistory.capacity
    /// A journal larger than this is compacted at the next write: however long the players'
    /// names, the file stays far below ``TextFile/largestSize``, what a read accepts.
    public static let compactBytes = 256 * 1024

    /// One game of the journal: its number and the game.
    public struct Record: Codable, Sendable, Hashable {
        public var game: Int
        public var played: PlayedGame

        public init(game: Int, played: PlayedGame) {
            self.game = game
            self.played = played
        }
    }

    private struct Header: Codable {
        var version: Int
    }

    /// What a journal's text holds.
    public struct Parsed: Sendable, Equatable {
        public var records: [Record]
        /// Bytes of the whole lines (everything but a torn last line).
        public var wholeBytes: Int
        /// What was dropped from the end, described, when the last line was cut short.
        public var torn: String?
    }

    /// The first line of every journal, with its newline.
    public static var headerLine: [UInt8] { Array("{\"version\":\(version)}\n".utf8) }

    /// `record` as one line, with its newline.
    public static func line(_ record: Record) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // JSON's encoder escapes control characters, so the line holds no raw newline.
        return Array(try encoder.encode(record)) + [UInt8(ascii: "\n")]
    }

    /// A whole journal of `records`: the header, then a line each.
    public static func contents(_ records: [Record]) throws -> [UInt8] {
        var bytes = headerLine
        for record in records { bytes += try line(record) }
        return bytes
    }

    /// Reads a journal's text; a problem names the line.
    public static func parse(_ text: String) -> Result<Parsed, Problem> {
        // Split on the byte, not on Characters: "\r\n" is one Character.
        var lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // After the last newline: nothing for a whole file, else a line a cut stopped short.
        let tail = lines.removeLast()
        let torn: String? = tail.isEmpty ? nil : "its last line (\(tail.count) bytes) was cut short, as a power cut during a write leaves it"
        guard let first = lines.first else {
            return .failure(Problem("it has no first line naming its format"))
        }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: Data(first)) else {
            return .failure(Problem("line 1 is not {\"version\":\(version)}"))
        }
        guard header.version == version else {
            return .failure(Problem("line 1: format version \(header.version), expected \(version)"))
        }
        var records: [Record] = []
        for (index, text) in lines.enumerated().dropFirst() {
            switch record(text, number: index + 1, after: records.last?.game ?? 0, decoder: decoder) {
            case .success(let record): records.append(record)
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(Parsed(records: records, wholeBytes: text.utf8.count - tail.count, torn: torn))
    }

    /// The game line `number` holds, checked: a game the board could have played, numbered after `previous`.
    private static func record(_ text: ArraySlice<UInt8>, number: Int, after previous: Int, decoder: JSONDecoder) -> Result<Record, Problem> {
        if let (_, scalar) = DecodingError.controlCharacterInText(String(decoding: text, as: UTF8.self)) {
            return .failure(Problem("line \(number): damaged JSON: the control character \(scalar.codePoint) stands raw inside text"))
        }
        if let (_, escape) = DecodingError.badEscapeInText(String(decoding: text, as: UTF8.self)) {
            return .failure(Problem("line \(number): damaged JSON: \(escape.quoted()) is no escape JSON has"))
        }
        let record: Record
        do {
            record = try decoder.decode(Record.self, from: Data(text))
        } catch let error as DecodingError {
            return .failure(Problem("line \(number): \(error.problem)"))
        } catch {
            return .failure(Problem("line \(number): unreadable JSON"))
        }
        if let problem = record.played.problem() { return .failure(Problem("line \(number): \(problem)")) }
        guard (1...gameLimit).contains(record.game) else {
            return .failure(Problem("line \(number): game \(record.game); a game's number is 1 to \(gameLimit)"))
        }
        guard record.game > previous else {
            return .failure(Problem("line \(number): game \(record.game) after game \(previous); the numbers must rise"))
        }
        return .success(record)
    }

    /// Why a journal cannot be used, as a phrase naming the line.
    public struct Problem: Error, Sendable, Equatable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// Appends `lines` (whole lines) to the journal at `path` and flushes it. The file must
    /// exist (``rewrite(_:to:)`` makes it, so that its directory entry is flushed once); it is
    /// opened without following a link. A write that fails is cut back to the old length, so no
    /// half line stays for the next append to run on from.
    public static func append(_ lines: [UInt8], to path: String) throws(TextFileError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw TextFileError(reason: "cannot append to the file: \(TextFile.describeErrno(errno))", code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw TextFileError(reason: "cannot append to the file: \(TextFile.describeErrno(errno))", code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw TextFileError(reason: "cannot append to the file: it is not a regular file") }
        if !TextFile.writeAll(fd, lines) || fsync(fd) != 0 {
            let failure = errno
            _ = ftruncate(fd, status.st_size)
            throw TextFileError(reason: "cannot append to the file: \(TextFile.describeErrno(failure))", code: failure)
        }
    }

    /// Replaces the journal at `path` with `records`, atomically (``TextFile/write(bytes:to:)``);
    /// returns the file's size.
    @discardableResult
    public static func rewrite(_ records: [Record], to path: String) throws(TextFileError) -> Int {
        let bytes: [UInt8]
        do {
            bytes = try contents(records)
        } catch {
            throw TextFileError(reason: "cannot encode the games: \(error)")
        }
        try TextFile.write(bytes: bytes, to: path)
        return bytes.count
    }
}
