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

/// The history's file of release 0.4, `history.jsonl`: JSON lines, read once, to import it.
///
/// ```
/// {"version":2}
/// {"game":41,"played":{"finished":"2026-11-23T22:41:05Z","moves":[…],…}}
/// {"game":42,"played":{…}}
/// ```
///
/// The first line names the format; each other line is one finished game with its number,
/// rising from line to line (the state file named the last game it included).
///
/// ## Contract
/// - ``parse(_:)`` is pure: the games oldest first, or why the text cannot be a journal. A last
///   line without its newline is what a power cut during an append left: it is dropped and
///   said (``Parsed/torn``), not a refusal. Any other damage refuses the whole file.
enum HistoryJournal {
    /// The first line's `version`.
    static let version = 2
    /// The greatest game number: as many games as a score counts (``Score/countLimit``).
    static let gameLimit = Score.countLimit

    /// One game of the journal: its number and the game.
    struct Record: Codable, Sendable, Hashable {
        var game: Int
        var played: PlayedGame

        init(game: Int, played: PlayedGame) {
            self.game = game
            self.played = played
        }
    }

    private struct Header: Codable {
        var version: Int
    }

    /// What a journal's text holds.
    struct Parsed: Sendable, Equatable {
        var records: [Record]
        /// Bytes of the whole lines (everything but a torn last line).
        var wholeBytes: Int
        /// What was dropped from the end, described, when the last line was cut short.
        var torn: String?
    }

    /// Reads a journal's text; a problem names the line.
    static func parse(_ text: String) -> Result<Parsed, Problem> {
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
    struct Problem: Error, Sendable, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
