import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The board's messages as the lines it writes: JSON with sorted keys (so that equal states are
/// equal bytes, which the sessions compare), each followed by a newline.
///
/// ## Contract
/// - Not shared across threads: the server's thread makes one and hands copies of it (one
///   `JSONEncoder`, only read) to the sessions it serves.
/// - Never fails: encoding the board's own plain values cannot fail, and were it ever to, the
///   client is told so in an `error` line rather than sent nothing.
struct MessageEncoder {
    private let encoder: JSONEncoder

    init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func line(_ message: APIMessage) -> [UInt8] {
        var bytes = (try? encoder.encode(message)).map { Array($0) } ?? Self.unencodable
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static let unencodable = Array(#"{"text":"the board could not encode a message","type":"error"}"#.utf8)
}
