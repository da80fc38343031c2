/// The `type` of one of the board's messages, read without decoding the rest of it: the relay
/// reads every line the board sends, and a `history` line is about 70 KB of games that only the
/// page that asked decodes. One pass over the bytes, skipping every value but the top-level
/// `type` (nested objects, arrays and strings with their escapes are stepped over whole, so a
/// `"type"` inside a game is never taken for the message's).
///
/// `nil` for anything that is not a JSON object with a top-level string `type` whose text has no
/// escapes (the board's types never need one). Pure.
enum TopLevelType {
    static func of(_ bytes: some Collection<UInt8>) -> String? {
        var reader = Reader(bytes: Array(bytes))
        return reader.type()
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func type() -> String? {
            skipSpaces()
            guard take(UInt8(ascii: "{")) else { return nil }
            var found: String?
            while true {
                skipSpaces()
                if take(UInt8(ascii: "}")) { return found }
                guard let key = string() else { return nil }
                skipSpaces()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpaces()
                if key == "type", peek == UInt8(ascii: "\"") {
                    guard let value = string() else { return nil }
                    found = value
                } else {
                    guard skipValue() else { return nil }
                }
                skipSpaces()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return found
            }
        }

        private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpaces() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// A string's text when it has no escapes, `""`-free otherwise: enough to compare a key.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var escaped = false
            while let byte = peek {
                index += 1
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    return escaped ? "" : String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
                }
            }
            return nil
        }

        /// Steps over one value of any kind, up to the `,` or `}` after it; `false` when the
        /// bytes end inside it.
        private mutating func skipValue() -> Bool {
            var depth = 0
            while let byte = peek {
                switch byte {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                    index += 1
                default:
                    index += 1
                }
            }
            return false
        }
    }
}
