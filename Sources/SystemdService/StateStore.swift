import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Presentation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the game, the next starter and the score in a file in the state directory, so that a
/// crash, a restart or a power cut loses nothing.
///
/// ## Contract
/// - ``save(_:)`` is atomic: a temporary file is written and fsynced, renamed over the state
///   file, and the directory fsynced, so the file is always either the old or the new state.
/// - ``load()`` only reads: the saved snapshot, ``Loaded/fresh`` when there is none, or
///   ``Loaded/unusable(problem:)`` for a corrupt or truncated file, which the caller sets aside
///   with ``setAside()`` once it knows it can play (never a crash loop, and nothing moved for a
///   run that cannot start).
/// - ``prepare()`` makes the directory; nothing else creates anything.
public struct StateStore: Sendable {
    public let directory: String
    public var path: String { directory + "/state.json" }

    public init(directory: String) {
        self.directory = directory
    }

    /// What ``load()`` found.
    public enum Loaded: Sendable, Equatable {
        case restored(GameSnapshot)
        case fresh
        /// The file cannot be used; `problem` says why, naming it.
        case unusable(problem: String)

        public var snapshot: GameSnapshot? {
            if case .restored(let snapshot) = self { snapshot } else { nil }
        }
    }

    public func load() -> Loaded {
        var status = stat()
        guard lstat(path, &status) == 0 || errno != ENOENT else { return .fresh }
        let problem: StateFileProblem
        do {
            let text = try TextFile.read(path)
            if let (line, scalar) = Self.controlCharacterInText(text) {
                throw StateFileProblem.invalid("damaged JSON: the control character \(scalar.codePoint) stands raw inside text on line \(line)")
            }
            let saved = try JSONDecoder().decode(SavedState.self, from: Data(text.utf8))
            return .restored(try saved.snapshot())
        } catch let error as StateFileProblem {
            problem = error
        } catch let error as TextFileError {
            problem = .unreadable(error.reason)
        } catch let error as DecodingError {
            problem = .invalid(Self.describe(error))
        } catch {
            problem = .invalid("unreadable JSON")
        }
        return .unusable(problem: "\(path.shownPath) \(problem)")
    }

    /// Moves the state file out of the way, kept for a person to look at, and returns where to:
    /// `state.json.corrupt-<time>` (with `-2`, `-3`, … when that is taken: nothing is
    /// overwritten). Throws, having moved nothing, when it cannot be moved.
    public func setAside() throws(StoreError) -> String {
        do {
            return try TextFile.setAside(path, suffix: ".corrupt-\(Int(Date().timeIntervalSince1970))")
        } catch {
            throw StoreError(path: path, reason: error.reason)
        }
    }

    /// Makes the state directory and any missing parents.
    public func prepare() throws(StoreError) {
        do {
            try TextFile.makeDirectory(directory)
        } catch {
            throw StoreError(path: directory, reason: error.reason)
        }
    }

    /// Writes `snapshot` atomically.
    public func save(_ snapshot: GameSnapshot) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(SavedState(snapshot))
        do {
            try TextFile.write(bytes: Array(data), to: path)
        } catch {
            throw StoreError(path: path, reason: error.reason)
        }
    }

    /// The first control character standing raw inside a JSON string, which JSON forbids: Swift
    /// 6.0's decoder (the Pi's) traps on one instead of throwing, and a damaged file must be set
    /// aside, not crash the service at every start.
    static func controlCharacterInText(_ text: String) -> (line: Int, scalar: Unicode.Scalar)? {
        var inString = false, escaped = false, line = 1
        for scalar in text.unicodeScalars {
            if inString && scalar.value < 0x20 { return (line, scalar) }
            if scalar == "\n" { line += 1 }
            if escaped {
                escaped = false
            } else if inString && scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                inString.toggle()
            }
        }
        return nil
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "damaged or truncated JSON (\(context.debugDescription.shown(limit: 200)))"
        case .dataCorrupted(let context):
            "\(place(context.codingPath)) holds a value of the wrong kind (\(context.debugDescription.shown(limit: 200)))"
        case .keyNotFound(let key, let context):
            "\(place(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            "\(place(context.codingPath)) holds a value of the wrong kind; it must be \(kind(of: type))"
        case .valueNotFound(let type, let context):
            "\(place(context.codingPath)) is null; it must be \(kind(of: type))"
        @unknown default: "unreadable JSON"
        }
    }

    /// "cells[3]", "scores.computer-1.xWins", or "the top level".
    private static func place(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue.shown() }
        }
        return text
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type: "a whole number"
        case is [String].Type, is [Any].Type: "a list"
        default: "an object"
        }
    }
}

/// A save that failed: which file, and why.
public struct StoreError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}
