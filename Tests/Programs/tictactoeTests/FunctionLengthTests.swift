import Foundation
import Testing
import TestSupport

/// Functions short enough to read at a glance: the house rule that no function in `Sources/` is
/// over ``FunctionLength/limit`` lines, from the line that declares it to its closing brace.
enum FunctionLength {
    static let limit = 40

    /// A function (or initialiser, subscript, computed property) and its length in lines.
    struct Found: CustomStringConvertible {
        var line: Int
        var length: Int
        var declaration: String
        var description: String { "line \(line), \(length) lines: \(declaration)" }
    }

    private static let declaration = try? NSRegularExpression(pattern: #"""
        ^\s*(?:(?:@\w+(?:\([^)]*\))?|public|private|fileprivate|internal|package|static|class|final|override|mutating|nonmutating|nonisolated|convenience|required|consuming|borrowing)\s+)*(?:func\s|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<]|(?:var|let)\s+\w+[^=]*\{\s*$)
        """#)

    /// Every function in `source` with its length.
    static func functions(in source: String) -> [Found] {
        let lines = source.components(separatedBy: "\n")
        var found: [Found] = []
        var inMultilineString = false
        for (index, line) in lines.enumerated() {
            let quotes = line.components(separatedBy: #"""""#).count - 1
            defer { if quotes % 2 == 1 { inMultilineString.toggle() } }
            guard !inMultilineString, isDeclaration(line), let end = closingLine(of: index, in: lines) else { continue }
            found.append(Found(line: index + 1, length: end - index + 1, declaration: line.trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    private static func isDeclaration(_ line: String) -> Bool {
        guard let declaration, !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return false }
        return declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }

    /// The line of the brace that closes the body opened on or after `start` (a requirement
    /// without a body, in a protocol, has none within a few lines).
    private static func closingLine(of start: Int, in lines: [String]) -> Int? {
        var depth = 0, opened = false, inMultilineString = false
        for index in start..<lines.count {
            if !opened && index > start + 15 { return nil }
            var scanner = LineScanner(lines[index], inMultilineString: inMultilineString)
            while let brace = scanner.nextBrace() {
                depth += brace == "{" ? 1 : -1
                if brace == "{" { opened = true }
                if opened && depth == 0 { return index }
            }
            inMultilineString = scanner.inMultilineString
        }
        return nil
    }

    /// The braces of one line that are code: not in a string literal or a comment.
    private struct LineScanner {
        private let characters: [Character]
        private var position = 0
        private(set) var inMultilineString: Bool

        init(_ line: String, inMultilineString: Bool) {
            characters = Array(line)
            self.inMultilineString = inMultilineString
        }

        mutating func nextBrace() -> Character? {
            var inString = false
            while position < characters.count {
                let character = characters[position]
                defer { position += 1 }
                if starts(#"""""#) {
                    inMultilineString.toggle()
                    position += 2
                } else if inMultilineString {
                    continue
                } else if character == "\\" {
                    position += 1
                } else if character == "\"" {
                    inString.toggle()
                } else if !inString && starts("//") {
                    position = characters.count
                } else if !inString && (character == "{" || character == "}") {
                    return character
                }
            }
            return nil
        }

        private func starts(_ text: String) -> Bool {
            let wanted = Array(text)
            return position + wanted.count <= characters.count && Array(characters[position..<(position + wanted.count)]) == wanted
        }
    }
}

private let repository = repositoryRoot

@Suite("Function length")
struct FunctionLengthTests {
    @Test("no function in Sources/ or Harness/ is over 40 lines, declaration to closing brace")
    func shortFunctions() throws {
        let files = ["Sources", "Harness"].flatMap { folder in
            FileManager.default.enumerator(at: repository.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        }
        #expect(files.count > 100, "the sources were not read")
        var counted = 0
        for file in files {
            let functions = FunctionLength.functions(in: try String(contentsOf: file, encoding: .utf8))
            counted += functions.count
            for function in functions where function.length > FunctionLength.limit {
                Issue.record("\(file.path.replacingOccurrences(of: repository.path + "/", with: "")): \(function)")
            }
        }
        #expect(counted > 1000, "only \(counted) functions were found: the scanner is broken")
    }

    @Test("the scanner measures a function to its own closing brace, past braces in strings and comments")
    func scanner() {
        let source = """
            struct S {
                func short() { let x = "}" }
                /// A comment with a { brace.
                public static func long(
                    _ a: Int
                ) -> String {
                    // } a brace in a comment
                    let text = \"\"\"
                        { not code
                        \"\"\"
                    return text + "\\"{"
                }
                var computed: Int {
                    1
                }
            }
            protocol P { func required() }
            """
        let found = FunctionLength.functions(in: source)
        #expect(found.map(\.line) == [2, 4, 13])
        #expect(found.map(\.length) == [1, 9, 3])
    }
}
