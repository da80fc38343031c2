import TicTacToe

/// Mutation fuzzing for the files the program reads: each call to ``next()`` returns the seed
/// text changed in one to four random ways that people and broken disks produce (a character
/// typed, deleted or doubled, a line repeated or lost, the file cut short, a run of brackets,
/// a control character, a digit run past any integer), from a fixed seed so that every run
/// checks the same cases and a failure can be replayed.
public struct Mutator {
    private var random: SeededRandom
    private let seed: [Character]

    /// Characters a mutation inserts: the syntax of TOML, JSON and key scripts, digits, letters,
    /// whitespace, line breaks of three systems, control and invisible characters, and non-ASCII.
    private static let alphabet: [Character] = Array(
        "[]{}\"'=#,.:-+_ \t\n\r\\/0123456789abcdefxoEtrunlsinf\u{0}\u{1B}\u{7F}\u{202E}\u{FEFF}éX O")

    public init(seed text: String, randomSeed: UInt64) {
        seed = Array(text)
        random = SeededRandom(seed: randomSeed)
    }

    public mutating func next() -> String {
        var text = seed
        for _ in 0...Int(random.next() % 4) { mutate(&text) }
        return String(text)
    }

    private mutating func index(in text: [Character], inclusive: Bool = false) -> Int {
        let count = text.count + (inclusive ? 1 : 0)
        return count == 0 ? 0 : Int(random.next() % UInt64(count))
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    private mutating func mutate(_ text: inout [Character]) {
        switch random.next() % 10 {
        case 0 where !text.isEmpty:  // delete a run
            let start = index(in: text)
            text.removeSubrange(start..<min(text.count, start + 1 + Int(random.next() % 8)))
        case 1:  // insert a character
            text.insert(pick(Self.alphabet), at: index(in: text, inclusive: true))
        case 2 where !text.isEmpty:  // replace a character
            text[index(in: text)] = pick(Self.alphabet)
        case 3:  // cut the file short
            text.removeSubrange(index(in: text, inclusive: true)...)
        case 4 where !text.isEmpty:  // repeat a line
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
            let line = pick(lines)
            text.insert(contentsOf: line + ["\n"], at: index(in: text, inclusive: true))
        case 5:  // a deep run of brackets or braces
            let opener = pick(["[", "{", "[[", "{a="])
            let depth = 1 + Int(random.next() % 400)
            text.insert(contentsOf: Array(String(repeating: opener, count: depth)), at: index(in: text, inclusive: true))
        case 6:  // a number past any integer, or a negative one
            text.insert(contentsOf: Array(pick(["99999999999999999999999", "-1", "9223372036854775807", "1e400", "-0", "0x", "1_"])),
                        at: index(in: text, inclusive: true))
        case 7 where !text.isEmpty:  // swap two characters
            let a = index(in: text), b = index(in: text)
            text.swapAt(a, b)
        case 8:  // line endings of another system
            text = Array(String(text).replacingLineBreaks(with: pick(["\r\n", "\r", "\n\n"])))
        default:  // a stray quote, comment or triple quote
            let stray: [Character] = pick([["\""], ["'"], ["#"], ["\"", "\"", "\""], ["'", "'", "'"]])
            text.insert(contentsOf: stray, at: index(in: text, inclusive: true))
        }
    }
}

extension String {
    fileprivate func replacingLineBreaks(with separator: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
