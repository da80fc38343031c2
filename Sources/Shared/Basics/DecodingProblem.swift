extension DecodingError {
    /// What is wrong, in a sentence for a person: where in the document (`cells[3]`,
    /// `scores.computer-1.xWins`, "the top level") and what was expected there.
    public var problem: String {
        switch self {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "damaged or truncated JSON (\(context.debugDescription.shown(limit: 200)))"
        case .dataCorrupted(let context):
            "\(Self.place(context.codingPath)) holds a value of the wrong kind (\(context.debugDescription.shown(limit: 200)))"
        case .keyNotFound(let key, let context):
            "\(Self.place(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            "\(Self.place(context.codingPath)) holds a value of the wrong kind; it must be \(Self.kind(of: type))"
        case .valueNotFound(let type, let context):
            "\(Self.place(context.codingPath)) is null; it must be \(Self.kind(of: type))"
        @unknown default: "unreadable JSON"
        }
    }

    /// The first control character standing raw inside a JSON string, which JSON forbids: Swift
    /// 6.0's decoder (the Pi's) traps on one instead of throwing [6.0.3: decoder-traps], so text from outside (a state
    /// file, a client's line) is checked with this before it is decoded.
    public static func controlCharacterInText(_ text: String) -> (line: Int, scalar: Unicode.Scalar)? {
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

    /// The first escape inside a JSON string that JSON does not have (`\[`, or `\u` without four
    /// hexadecimal digits), as written, and its line: Swift 6.0's decoder (the Pi's) traps on one
    /// in an object's key instead of throwing [6.0.3: decoder-traps], so text from outside is checked with this too.
    public static func badEscapeInText(_ text: String) -> (line: Int, escape: String)? {
        let scalars = Array(text.unicodeScalars)
        var inString = false, line = 1, index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" { line += 1 }
            if inString && scalar == "\\" {
                guard index + 1 < scalars.count else { return (line, "\\") }
                let next = scalars[index + 1]
                if next == "u" {
                    let digits = scalars[(index + 2)..<min(index + 6, scalars.count)]
                    guard digits.count == 4, digits.allSatisfy(\.properties.isASCIIHexDigit) else {
                        return (line, "\\u" + String(String.UnicodeScalarView(digits.prefix(while: { !$0.properties.isWhitespace && $0 != "\"" }))))
                    }
                    index += 6
                    continue
                }
                guard "\"\\/bfnrt".unicodeScalars.contains(next) else { return (line, "\\" + String(next)) }
                index += 2
                continue
            }
            if scalar == "\"" { inString.toggle() }
            index += 1
        }
        return nil
    }

    /// "cells[3]", "scores.computer-1.xWins", or "the top level".
    public static func place(_ path: [any CodingKey]) -> String {
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
        case is Bool.Type: "true or false"
        case is [String].Type, is [Any].Type: "a list"
        default: "an object"
        }
    }
}
