/// The blocks of a document that a program writes: the lines between
///
///     <!-- begin generated: NAME (COMMAND) -->
///     <!-- end generated -->
///
/// each block's text made by its ``ReferenceBlock`` from what it documents, never edited by hand.
/// COMMAND says what writes it (`make docs`, or `make bench` for the measured figures, which
/// `make bench` measures and `make docs` renders). Outside the markers a document is prose.
enum GeneratedBlocks {
    static let endMarker = "<!-- end generated -->"

    static func beginMarker(_ block: ReferenceBlock) -> String {
        "<!-- begin generated: \(block.name) (\(block.command)) -->"
    }

    /// One block found in a document.
    struct Found: Equatable {
        var name: String
        /// The text between the marker lines, each line ended by a newline.
        var text: String
        /// The begin marker's line, counting from 1.
        var line: Int
    }

    /// What is wrong with a document's markers.
    struct MarkerError: Error, CustomStringConvertible {
        var description: String
    }

    /// The blocks of `document`, in order. `file` names it in errors.
    static func blocks(in document: String, file: String) throws -> [Found] {
        var found: [Found] = []
        var open: Found?
        for (index, line) in lines(of: document).enumerated() {
            let content = line.hasSuffix("\n") ? String(line.dropLast()) : line
            if let name = beginName(content) {
                if let open { throw MarkerError(description: "\(file), line \(index + 1): a block begins inside \(open.name), begun at line \(open.line)") }
                open = Found(name: name, text: "", line: index + 1)
            } else if content == endMarker {
                guard let block = open else { throw MarkerError(description: "\(file), line \(index + 1): a block ends that never began") }
                found.append(block)
                open = nil
            } else if open != nil {
                open?.text += line
            }
        }
        if let open { throw MarkerError(description: "\(file), line \(open.line): the block \(open.name) has no end marker") }
        return found
    }

    /// `document` with each block's text (and begin marker) rewritten: `text(name)` gives the
    /// block named `name`, or nil for a name no block has (an error).
    static func rewrite(_ document: String, file: String, with block: (String) throws -> (ReferenceBlock, String)?) throws -> String {
        var output = ""
        var inside = false
        for (index, line) in lines(of: document).enumerated() {
            let content = line.hasSuffix("\n") ? String(line.dropLast()) : line
            if let name = beginName(content) {
                guard let (reference, text) = try block(name) else {
                    throw MarkerError(description: "\(file), line \(index + 1): no generated block is named \(name)")
                }
                output += beginMarker(reference) + "\n" + text
                inside = true
            } else if content == endMarker {
                output += line
                inside = false
            } else if !inside {
                output += line
            }
        }
        return output
    }

    /// The name in a begin marker, or nil for any other line.
    private static func beginName(_ line: String) -> String? {
        let prefix = "<!-- begin generated: ", suffix = " -->"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
        let inner = line.dropFirst(prefix.count).dropLast(suffix.count)
        return String(inner.split(separator: " ", maxSplits: 1).first ?? "")
    }

    /// The lines of `text`, each with its newline (the last may have none).
    private static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character == "\n" {
                lines.append(current)
                current = ""
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
