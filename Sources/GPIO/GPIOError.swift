/// What went wrong with a chip or its lines, worded for the person at the board.
public enum GPIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line is held by another request (the kernel's EBUSY).
    case lineBusy(chip: String, offset: LineOffset, consumer: String?)
    /// The chip has no such line.
    case offsetOutOfRange(chip: String, offset: LineOffset, lineCount: Int)
    /// The same line appears twice in one request.
    case duplicateLine(chip: String, offset: LineOffset)
    /// The lines were released and can no longer be used.
    case released(chip: String)
    /// The line is not part of this request.
    case notRequested(chip: String, offset: LineOffset)

    public var description: String {
        switch self {
        case .lineBusy(let chip, let offset, let consumer):
            let holder = consumer.map { "\"\($0)\"" } ?? "another program"
            return "\(chip) line \(offset.rawValue) (\(offset)) is busy: \(holder) holds it. Stop that program (or the tictactoe service) and try again."
        case .offsetOutOfRange(let chip, let offset, let count):
            return "\(chip) has no line \(offset.rawValue): it has lines 0...\(count - 1). Check the pin numbers in the configuration."
        case .duplicateLine(let chip, let offset):
            return "\(chip) line \(offset.rawValue) (\(offset)) was requested twice in one request."
        case .released(let chip):
            return "\(chip): the lines were already released."
        case .notRequested(let chip, let offset):
            return "\(chip) line \(offset.rawValue) (\(offset)) is not part of this request."
        }
    }
}
