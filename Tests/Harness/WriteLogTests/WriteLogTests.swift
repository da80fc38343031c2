import Testing
@testable import WriteLog

/// A disk or a log in memory.
final class Bytes: ByteSource, ByteSink {
    var contents: [UInt8]
    init(_ contents: [UInt8]) { self.contents = contents }

    func bytes(at offset: UInt64, count: Int) -> [UInt8] {
        let start = min(Int(offset), contents.count)
        return Array(contents[start..<min(start + count, contents.count)])
    }

    func write(_ bytes: [UInt8], at offset: UInt64) {
        let end = Int(offset) + bytes.count
        if contents.count < end { contents += [UInt8](repeating: 0, count: end - contents.count) }
        contents.replaceSubrange(Int(offset)..<end, with: bytes)
    }
}

/// Writes a log the way the kernel's target lays it out (drivers/md/dm-log-writes.c).
struct LogWriter {
    let sectorSize = 512
    var entries: [[UInt8]] = []

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    mutating func add(sector: UInt64, data: [UInt8] = [], flags: WriteLog.Flags, mark: String? = nil, discardSectors: UInt64 = 0) {
        let name = Array((mark ?? "").utf8)
        let sectors = flags.contains(.discard) ? discardSectors : UInt64(data.count / sectorSize)
        var header = Self.littleEndian(sector) + Self.littleEndian(mark == nil ? sectors : 0) + Self.littleEndian(flags.rawValue)
            + Self.littleEndian(UInt64(name.count)) + name
        header += [UInt8](repeating: 0, count: sectorSize - header.count)
        entries.append(header + data)
    }

    mutating func write(_ sector: UInt64, _ byte: UInt8, sectors: Int = 1, flags: WriteLog.Flags = []) {
        add(sector: sector, data: [UInt8](repeating: byte, count: sectors * sectorSize), flags: flags)
    }

    func bytes(count: Int? = nil, magic: UInt64 = WriteLog.magic, version: UInt64 = 1) -> [UInt8] {
        var superBlock = Self.littleEndian(magic) + Self.littleEndian(version) + Self.littleEndian(UInt64(count ?? entries.count))
            + Self.littleEndian(UInt32(sectorSize))
        superBlock += [UInt8](repeating: 0, count: sectorSize - superBlock.count)
        return superBlock + entries.joined()
    }
}

@Suite("A log of block writes (device-mapper's log-writes)")
struct WriteLogTests {
    /// Two sectors written and flushed, one forced to the medium, a mark, one still in the cache
    /// at the end (never flushed), a discard, then a flush.
    func example() -> LogWriter {
        var log = LogWriter()
        log.write(2, 0xA1)
        log.write(4, 0xB2, sectors: 2)
        log.add(sector: 0, flags: .flush)
        log.write(1, 0xC3, flags: .forceUnitAccess)
        log.add(sector: 0, flags: .mark, mark: "durable-1")
        log.write(2, 0xD4)
        log.add(sector: 4, flags: .discard, discardSectors: 1)
        log.add(sector: 0, flags: .flush)
        log.write(7, 0xE5)
        return log
    }

    @Test("entries, marks and crash points are read from the headers")
    func reading() throws {
        let log = try WriteLog(reading: Bytes(example().bytes()))
        #expect(log.sectorSize == 512)
        #expect(log.entries.count == 9)
        #expect(log.entries.map(\.sector) == [2, 4, 0, 1, 0, 2, 4, 0, 7])
        #expect(log.entries.map(\.sectors) == [1, 2, 0, 1, 0, 1, 1, 0, 1])
        #expect(log.entries.compactMap(\.mark) == ["durable-1"])
        #expect(log.crashPoints.map(\.index) == [2, 3, 7])
        // Each write's data follows its header; a flush, a mark and a discard carry none.
        #expect(log.entries.map(\.dataOffset) == [1024, 2048, 3584, 4096, 5120, 5632, 6656, 7168, 7680])
    }

    @Test("replaying to each crash point leaves what the disk held then; the unflushed write never lands")
    func replaying() throws {
        let bytes = Bytes(example().bytes())
        let log = try WriteLog(reading: bytes)
        let disk = Bytes([UInt8](repeating: 0x11, count: 8 * 512))
        func sector(_ n: Int) -> Set<UInt8> { Set(disk.contents[(n * 512)..<((n + 1) * 512)]) }
        var done = 0
        var seen: [[Set<UInt8>]] = []
        for point in log.crashPoints {
            try log.replay(log.entries[done...point.index], from: bytes, onto: disk)
            done = point.index + 1
            seen.append((0..<8).map(sector))
        }
        #expect(seen[0] == [[0x11], [0x11], [0xA1], [0x11], [0xB2], [0xB2], [0x11], [0x11]])
        #expect(seen[1] == [[0x11], [0xC3], [0xA1], [0x11], [0xB2], [0xB2], [0x11], [0x11]])
        #expect(seen[2] == [[0x11], [0xC3], [0xD4], [0x11], [0], [0xB2], [0x11], [0x11]])
        #expect(disk.contents.count == 8 * 512)
    }

    @Test("a crash point with nothing written since the one before is not distinct: it leaves the same disk")
    func distinctPoints() throws {
        var log = LogWriter()
        log.write(1, 0xA1)
        log.add(sector: 0, flags: .flush)                   // 1: the write made durable
        log.add(sector: 0, flags: .flush)                   // 2: nothing new
        log.add(sector: 0, flags: .mark, mark: "saved")
        log.add(sector: 0, flags: .flush)                   // 4: a mark is not a write
        log.write(2, 0xB2, flags: .forceUnitAccess)         // 5: a forced write
        log.add(sector: 0, flags: .flush)                   // 6: nothing since the forced write
        log.add(sector: 3, flags: .discard, discardSectors: 1)
        log.add(sector: 0, flags: .flush)                   // 8: the discard zeroed a sector
        let read = try WriteLog(reading: Bytes(log.bytes()))
        #expect(read.crashPoints.map(\.index) == [1, 2, 4, 5, 6, 8])
        #expect(read.distinctCrashPoints.map(\.index) == [1, 5, 8])
        #expect(try WriteLog(reading: Bytes(example().bytes())).distinctCrashPoints.map(\.index) == [2, 3, 7])
    }

    @Test("what is not a whole log is refused, saying why")
    func refusals() {
        let good = example()
        #expect(throws: WriteLog.Problem.notALog("its magic number is wrong")) { try WriteLog(reading: Bytes(good.bytes(magic: 42))) }
        #expect(throws: WriteLog.Problem.notALog("version 2; this replayer reads 1")) { try WriteLog(reading: Bytes(good.bytes(version: 2))) }
        #expect(throws: WriteLog.Problem.truncated("no super block (10 bytes)")) { try WriteLog(reading: Bytes(Array(good.bytes().prefix(10)))) }
        #expect(throws: WriteLog.Problem.truncated("entry 9's header at byte 8192")) { try WriteLog(reading: Bytes(good.bytes(count: 10))) }
        let cut = Array(good.bytes().dropLast(1))
        #expect(throws: WriteLog.Problem.truncated("entry 8's data ends past it")) { try WriteLog(reading: Bytes(cut)) }
        #expect(WriteLog.Problem.truncated("x").description == "the log ends too soon: x")
    }

    @Test("an empty log has no crash points")
    func empty() throws {
        let log = try WriteLog(reading: Bytes(LogWriter().bytes()))
        #expect(log.entries.isEmpty && log.crashPoints.isEmpty)
    }
}
