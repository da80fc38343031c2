import Basics

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
    /// No chip matches the path, name or label asked for; `available` lists those that exist.
    case chipNotFound(spec: String, available: [ChipDescription])
    /// The path exists but is not a GPIO chip's character device.
    case notAGPIOChip(path: String)
    /// The chip's device file exists but this user may not open it.
    case permissionDenied(path: String)
    /// Any other failure of the GPIO library or the kernel, with the C error number (kept for
    /// code that tells failures apart; the message says it in words).
    case system(chip: String, operation: String, errno: Int32, message: String)

    public var description: String {
        switch self {
        case .lineBusy(let chip, let offset, let consumer):
            let holder = consumer.map { "\"\($0)\"" } ?? "another program"
            return "\(chip) line \(offset.rawValue) (\(offset)) is busy: \(holder) holds it. Stop that program (or the tictactoe service) and try again."
        case .offsetOutOfRange(let chip, let offset, let count):
            let lines = count == 0 ? "it has no lines at all" : count == 1 ? "its only line is 0" : "it has lines 0 to \(count - 1)"
            return "\(chip) has no line \(offset.rawValue): \(lines). Check the pin numbers in the configuration, and the chip."
        case .duplicateLine(let chip, let offset):
            return "\(chip) line \(offset.rawValue) (\(offset)) was requested twice in one request."
        case .released(let chip):
            return "\(chip): the lines were already released."
        case .notRequested(let chip, let offset):
            return "\(chip) line \(offset.rawValue) (\(offset)) is not part of this request."
        case .chipNotFound(let spec, let available):
            let list = available.isEmpty
                ? "no GPIO chips exist here (is this a Raspberry Pi, and is the gpio character device enabled?)"
                : "the chips here are: " + available.map(\.description).joined(separator: "; ")
            return "no GPIO chip matches \(spec.quoted(limit: 200)); \(list). Give a path (/dev/gpiochip0), a name (gpiochip0) or a label (pinctrl-bcm2711)."
        case .notAGPIOChip(let path):
            return "\(path.shownPath) is not a GPIO chip. Give a chip's device (/dev/gpiochip0), its name (gpiochip0) or its label (pinctrl-bcm2711); `gpiodetect` lists them."
        case .permissionDenied(let path):
            return "\(path.shownPath): permission denied. Add your user to the gpio group (sudo usermod -aG gpio $USER, then log in again), or install a udev rule giving the group gpio read-write access to gpiochip devices."
        case .system(let chip, let operation, _, let message):
            return "\(chip): \(operation) failed: \(message)."
        }
    }
}
