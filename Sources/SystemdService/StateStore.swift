#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BoardConfiguration
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
/// - ``load()`` returns the saved snapshot, or a fresh one when there is none. A corrupt or
///   truncated file is reported, set aside as `state.json.corrupt-<time>` and replaced by a
///   fresh state: never a crash loop.
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
        /// The file was unusable and moved to `setAside`; `problem` says why.
        case setAside(problem: String, setAside: String)

        public var snapshot: GameSnapshot? {
            if case .restored(let snapshot) = self { snapshot } else { nil }
        }
    }

    public func load() -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else { return .fresh }
        let problem: StateFileProblem
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let saved = try JSONDecoder().decode(SavedState.self, from: data)
            return .restored(try saved.snapshot())
        } catch let error as StateFileProblem {
            problem = error
        } catch let error as DecodingError {
            problem = .invalid(Self.describe(error))
        } catch {
            problem = .unreadable("\(error)")
        }
        let stamp = Int(Date().timeIntervalSince1970)
        let aside = "\(path).corrupt-\(stamp)"
        _ = rename(path, aside)
        return .setAside(problem: "\(path) \(problem)", setAside: aside)
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

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context): "damaged or truncated JSON (\(context.debugDescription))"
        case .keyNotFound(let key, _): "the key \"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        @unknown default: "unreadable JSON"
        }
    }
}

/// A save that failed: which file, and why.
public struct StoreError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}
