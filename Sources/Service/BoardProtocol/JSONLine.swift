#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value as one line of JSON, written as the board writes its messages: keys sorted, slashes
/// left alone. The one place a line is encoded for the protocol's clients and relays (the board's
/// own server keeps one encoder for its hot path, `MessageEncoder`).
public enum JSONLine {
    /// `value` as one line, or nil when it cannot be encoded.
    public static func encode(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}
