#if canImport(Glibc)
import Glibc
#endif
import QRShim

/// A QR code: a square of modules, `true` dark, made from a text by libqrencode (through the
/// `QRShim`) as the smallest symbol that holds it in byte mode at error correction level M
/// (15 % of the symbol may be lost). The value is the modules alone, without the quiet zone
/// every rendering adds (``quietZone``), so that each rendering can be checked against it.
public struct QRCode: Sendable, Hashable {
    /// Modules a side: 21 (version 1) to 177 (version 40), 4 more each version.
    public let size: Int
    /// Row by row, `size` × `size`.
    public let modules: [Bool]

    /// The light border a reader needs around the symbol, in modules (ISO/IEC 18004's four).
    public static let quietZone = 4

    /// Why a text has no QR code.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// More bytes than the largest symbol holds at level M (2,331).
        case tooLong(bytes: Int)
        /// A NUL byte, which the C library would read as the text's end.
        case containsNul
        /// The library failed otherwise; its errno.
        case library(errno: Int32)

        public var description: String {
            switch self {
            case .tooLong(let bytes): "the text is \(bytes) bytes: too long for a QR code (at most \(QRCode.capacity) at level M)"
            case .containsNul: "the text holds a NUL character, which a QR code of it would cut short"
            case .library(let code): "libqrencode could not make the code: \(String(cString: strerror(code)))"
            }
        }
    }

    /// The most bytes a symbol holds in byte mode at level M (version 40), for messages; the
    /// library decides.
    public static let capacity = 2_331

    public init(encoding text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        guard !bytes.contains(0) else { throw .containsNul }
        let width = Int(TTG_QR_MAX_WIDTH)
        var buffer = [UInt8](repeating: 0, count: width * width)
        let made = text.withCString { ttg_qr_encode($0, &buffer, buffer.count) }
        guard made > 0 else {
            throw errno == ERANGE ? .tooLong(bytes: bytes.count) : .library(errno: errno)
        }
        size = Int(made)
        modules = buffer.prefix(size * size).map { $0 != 0 }
    }

    /// Whether the module at `row`, `column` is dark; outside the symbol (the quiet zone) light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// The library's version, such as "4.1.1".
    public static var libraryVersion: String { String(cString: ttg_qr_library_version()) }
}
