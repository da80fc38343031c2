/// Splits the bytes a client sends into lines, holding at most one line's worth: a line longer
/// than ``APIRequest/maximumLineLength`` is reported once, as ``Line/tooLong``, and its rest is
/// dropped up to its newline, so a client cannot make the board hold more than that. (The
/// board's clients use it too, with a limit of their own.)
public struct LineBuffer: Sendable {
    public enum Line: Sendable, Equatable {
        case complete([UInt8])
        case tooLong
    }

    // Usable from inline so that `append` is specialised where it is called: generic, it
    // boxed every slice it took apart (what a reader calls with is always a concrete type).
    @usableFromInline var partial: [UInt8] = []
    /// Dropping the rest of a line that was too long.
    @usableFromInline var skipping = false
    @usableFromInline let limit: Int

    public init(limit: Int = APIRequest.maximumLineLength) {
        self.limit = limit
    }

    /// The lines `bytes` completes, in order; a trailing part waits for the next bytes.
    @inlinable
    public mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Line] {
        var lines: [Line] = []
        var rest = bytes[...]
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            let piece = rest[..<newline]
            if skipping {
                skipping = false
            } else if partial.count + piece.count > limit {
                lines.append(.tooLong)
            } else {
                var line = partial
                line.append(contentsOf: piece)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                lines.append(.complete(line))
            }
            partial.removeAll(keepingCapacity: true)
            rest = rest[rest.index(after: newline)...]
        }
        if !skipping {
            if partial.count + rest.count > limit {
                lines.append(.tooLong)
                partial.removeAll(keepingCapacity: false)
                skipping = true
            } else {
                partial.append(contentsOf: rest)
            }
        }
        return lines
    }

    /// Bytes of a line still waiting for its newline.
    public var pendingCount: Int { partial.count }
}
