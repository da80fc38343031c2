#if canImport(Glibc)
import Glibc
#endif

/// A record of every write and flush a block device received, in the format of the kernel's
/// device-mapper `log-writes` target (Documentation/admin-guide/device-mapper/log-writes.rst),
/// read back to replay what a disk held at each instant a power cut could have struck.
///
/// ## The format
/// All integers little-endian. Byte 0 holds the super block: magic, version (1), the number of
/// entries, the sector size. Entries follow from the second sector, each a header sector (sector,
/// sector count, flags, data length; a mark's name after them) followed, for a write, by the
/// sectors written. The target logs a write only once a flush that covers it has completed, so
/// the log's order is the order in which data became durable, and a write still in the disk's
/// cache at a flush comes after that flush.
///
/// ## What replaying promises
/// - ``entries`` are read from the headers alone; ``replay(_:onto:)`` copies each write's data
///   from the log to the same sectors of the target, in log order, and fills a discard with zeros.
/// - ``crashPoints`` are the entries after which a power cut leaves a defined disk: each flush and
///   each write forced to the medium (FUA). Replaying up to and including one gives that disk.
///   ``distinctCrashPoints`` leaves out each one with nothing written since the crash point before
///   it (a flush right after another, or after a forced write): it leaves the very same disk.
/// - A log that is not one (wrong magic or version, a header or data past the log's end) is
///   refused by ``init(reading:)`` with a ``Problem`` that says where; nothing is replayed from it.
public struct WriteLog: Sendable {
    /// What the target records about one request.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        public static let flush = Flags(rawValue: 1 << 0)
        public static let forceUnitAccess = Flags(rawValue: 1 << 1)
        public static let discard = Flags(rawValue: 1 << 2)
        public static let mark = Flags(rawValue: 1 << 3)
        public static let metadata = Flags(rawValue: 1 << 4)
    }

    public struct Entry: Sendable, Equatable {
        /// Its place in the log, from 0.
        public var index: Int
        /// The first sector written, in the log's sector size.
        public var sector: UInt64
        public var sectors: UInt64
        public var flags: Flags
        /// Where in the log the written data starts (nothing for a flush, a discard or a mark).
        public var dataOffset: UInt64
        /// A mark's name (`dmsetup message … mark NAME`).
        public var mark: String?

        /// A power cut just after this entry leaves a defined disk.
        public var isCrashPoint: Bool { !flags.isDisjoint(with: [.flush, .forceUnitAccess]) }

        /// Replaying it changes the disk: a write, or a discard (zeros); a flush or a mark carries
        /// nothing.
        public var changesDisk: Bool { !flags.contains(.mark) && sectors > 0 }
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notALog(String)
        case truncated(String)
        case unreadable(String)

        public var description: String {
            switch self {
            case .notALog(let why): "not a log-writes log: \(why)"
            case .truncated(let why): "the log ends too soon: \(why)"
            case .unreadable(let why): why
            }
        }
    }

    static let magic: UInt64 = 0x6a73_6677_7368_72
    static let version: UInt64 = 1
    static let headerBytes = 32

    public let sectorSize: Int
    public let entries: [Entry]
    public var crashPoints: [Entry] { entries.filter(\.isCrashPoint) }

    /// The crash points whose disk differs from the crash point's before (the first always).
    public var distinctCrashPoints: [Entry] {
        var changed = true
        return entries.filter { entry in
            if entry.changesDisk { changed = true }
            guard entry.isCrashPoint, changed else { return false }
            changed = false
            return true
        }
    }

    /// Reads the log's super block and every entry's header from `source`.
    public init(reading source: some ByteSource) throws(Problem) {
        let superBlock = try source.bytes(at: 0, count: 28)
        guard superBlock.count == 28 else { throw .truncated("no super block (\(superBlock.count) bytes)") }
        guard superBlock.littleEndian(UInt64.self, at: 0) == Self.magic else { throw .notALog("its magic number is wrong") }
        let version = superBlock.littleEndian(UInt64.self, at: 8)
        guard version == Self.version else { throw .notALog("version \(version); this replayer reads \(Self.version)") }
        let count = superBlock.littleEndian(UInt64.self, at: 16)
        let sectorSize = Int(superBlock.littleEndian(UInt32.self, at: 24))
        guard [512, 1024, 2048, 4096].contains(sectorSize) else { throw .notALog("sector size \(sectorSize)") }
        guard count < UInt64(Int32.max) else { throw .notALog("\(count) entries") }
        let size = UInt64(sectorSize)
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var offset = size
        for index in 0..<Int(count) {
            let entry = try Self.entry(index, at: offset, sectorSize: sectorSize, in: source)
            offset = entry.dataOffset + (entry.flags.contains(.mark) || entry.flags.contains(.discard) ? 0 : entry.sectors * size)
            entries.append(entry)
        }
        if let last = entries.last(where: { !$0.flags.contains(.discard) && !$0.flags.contains(.mark) && $0.sectors > 0 }) {
            let end = last.dataOffset + last.sectors * size - 1
            guard try source.bytes(at: end, count: 1).count == 1 else { throw .truncated("entry \(last.index)'s data ends past it") }
        }
        self.sectorSize = sectorSize
        self.entries = entries
    }

    /// The entry whose header is at `offset`: its sectors, flags and data, or a mark's name.
    private static func entry(_ index: Int, at offset: UInt64, sectorSize: Int, in source: some ByteSource) throws(Problem) -> Entry {
        let size = UInt64(sectorSize)
        let header = try source.bytes(at: offset, count: sectorSize)
        guard header.count == sectorSize else { throw .truncated("entry \(index)'s header at byte \(offset)") }
        let flags = Flags(rawValue: header.littleEndian(UInt64.self, at: 16))
        let sectors = header.littleEndian(UInt64.self, at: 8)
        let dataLength = header.littleEndian(UInt64.self, at: 24)
        var entry = Entry(
            index: index, sector: header.littleEndian(UInt64.self, at: 0), sectors: sectors, flags: flags,
            dataOffset: offset + size, mark: nil)
        if flags.contains(.mark) {
            let length = min(Int(min(dataLength, UInt64(sectorSize))), sectorSize - headerBytes)
            let name = header[headerBytes..<(headerBytes + length)].prefix { $0 != 0 }
            entry.mark = String(decoding: name, as: UTF8.self)
            entry.sectors = 0
        } else if !flags.contains(.discard) {
            guard sectors <= UInt64(Int32.max) / size else { throw .notALog("entry \(index) writes \(sectors) sectors") }
        }
        return entry
    }

    /// Applies `entries` (a run of this log's, in order) to `target`, reading their data from
    /// `source`, the log itself.
    public func replay(_ entries: ArraySlice<Entry>, from source: some ByteSource, onto target: some ByteSink) throws(Problem) {
        let size = UInt64(sectorSize)
        for entry in entries where entry.changesDisk {
            let count = Int(entry.sectors * size)
            let data: [UInt8]
            if entry.flags.contains(.discard) {
                data = [UInt8](repeating: 0, count: count)
            } else {
                data = try source.bytes(at: entry.dataOffset, count: count)
                guard data.count == count else { throw .truncated("entry \(entry.index)'s data") }
            }
            try target.write(data, at: entry.sector * size)
        }
    }
}

/// Where a log is read from.
public protocol ByteSource {
    /// Up to `count` bytes from `offset`: fewer only at the end.
    func bytes(at offset: UInt64, count: Int) throws(WriteLog.Problem) -> [UInt8]
}

/// Where a log is replayed to.
public protocol ByteSink {
    func write(_ bytes: [UInt8], at offset: UInt64) throws(WriteLog.Problem)
}

/// A file or block device, read and written in place.
public final class BlockFile: ByteSource, ByteSink {
    public let path: String
    private let descriptor: Int32

    public init(path: String, writable: Bool) throws(WriteLog.Problem) {
        self.path = path
        descriptor = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable("\(path): cannot open it: \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }

    public func bytes(at offset: UInt64, count: Int) throws(WriteLog.Problem) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { room in
                room.baseAddress.map { pread(descriptor, $0 + filled, count - filled, off_t(offset) + off_t(filled)) } ?? 0
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .unreadable("\(path): reading at byte \(offset): \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            filled += got
        }
        return Array(buffer.prefix(filled))
    }

    public func write(_ bytes: [UInt8], at offset: UInt64) throws(WriteLog.Problem) {
        var written = 0
        while written < bytes.count {
            let put = bytes.withUnsafeBytes { data in
                data.baseAddress.map { pwrite(descriptor, $0 + written, bytes.count - written, off_t(offset) + off_t(written)) } ?? 0
            }
            if put < 0 && errno == EINTR { continue }
            guard put > 0 else { throw .unreadable("\(path): writing at byte \(offset): \(String(cString: strerror(errno)))") }
            written += put
        }
    }

    /// Waits until what was written is on the device.
    public func synchronize() throws(WriteLog.Problem) {
        guard fsync(descriptor) == 0 else { throw .unreadable("\(path): fsync: \(String(cString: strerror(errno)))") }
    }
}

extension [UInt8] {
    func littleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        for byte in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(self[offset + byte]) }
        return value
    }
}
