/// One page of a processor's trace buffer, as `per_cpu/cpuN/trace_pipe_raw` hands it out, read
/// the way the kernel's own reader reads it (kernel/trace/ring_buffer.c): binary, so that the
/// emulated kernel need not print every record as text nor the harness parse it back (in the
/// x86_64 VM that cost more than the rest of the suite).
///
/// A page: a 64-bit timestamp, a 64-bit count of the bytes of records in it (with two flags in
/// bits 31 and 30: records were lost before it, and their count is stored after them), then the
/// records.
/// Each record starts with a 32-bit word: a 5-bit kind and a 27-bit time since the record
/// before. Kinds 1–28 are data of that many 32-bit words; 0 is data whose length in bytes (its
/// own word included) follows; 29 is a discarded record (length follows; its time is not
/// counted, as the kernel's reader does not count it), or with no time the page's end; 30
/// extends the time by the next word shifted by 27; 31 sets it outright.
struct TracePage {
    /// Where the fields of one event kind lie in its data, from the event's `format` file.
    struct EventFormat: Sendable, Hashable {
        var id: UInt16
        var fields: [String: Int]

        /// Reads `format`'s text: the event's `ID:` line and each `field:TYPE NAME; offset:N;`.
        init?(_ format: String) {
            var id: UInt16?, fields: [String: Int] = [:]
            for line in format.split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("ID:") { id = UInt16(text.dropFirst(3).trimmingCharacters(in: .whitespaces)) }
                guard text.hasPrefix("field:"), let semicolon = text.firstIndex(of: ";"),
                      let name = text[text.index(text.startIndex, offsetBy: 6)..<semicolon].split(separator: " ").last,
                      let offsetField = text.split(separator: ";").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("offset:") }),
                      let offset = Int(offsetField.trimmingCharacters(in: .whitespaces).dropFirst(7)) else { continue }
                fields[String(name)] = offset
            }
            guard let id else { return nil }
            self.id = id
            self.fields = fields
        }

        init(id: UInt16, fields: [String: Int]) {
            self.id = id
            self.fields = fields
        }
    }

    /// A `gpio_value` record: a line set (or read) to a value, at a time of the trace's clock.
    struct LineValue: Sendable, Hashable {
        var time: Int64
        var gpio: Int
        var isRead: Bool
        var value: Bool
    }

    /// The `gpio_value` records of `page` (other kinds skipped), and how many records the
    /// kernel lost before it (one when it lost some without counting them).
    static func lineValues(in page: [UInt8], format: EventFormat) -> (values: [LineValue], lost: Int) {
        guard page.count >= 16, let gpio = format.fields["gpio"], let get = format.fields["get"], let value = format.fields["value"] else {
            return ([], 0)
        }
        var time = page.u64(at: 0)
        let (end, lost) = recordsEnd(of: page)
        var values: [LineValue] = [], at = 16
        while at + 4 <= end {
            let header = page.u32(at: at), kind = header & 31, delta = UInt64(header >> 5)
            switch kind {
            case 29:
                guard delta != 0, at + 8 <= end else { return (values, lost) }
                at += 4 + Int(page.u32(at: at + 4))
            case 30:
                guard at + 8 <= end else { return (values, lost) }
                time &+= (UInt64(page.u32(at: at + 4)) << 27) &+ delta
                at += 8
            case 31:
                guard at + 8 <= end else { return (values, lost) }
                time = (UInt64(page.u32(at: at + 4)) << 27) &+ delta
                at += 8
            default:
                let (data, size) = kind == 0 ? (at + 8, Int(page.u32(at: at + 4)) - 4) : (at + 4, Int(kind) * 4)
                guard size >= 0, data + size <= end else { return (values, lost) }
                time &+= delta
                if size >= max(gpio, get, value) + 4, page.u16(at: data) == format.id {
                    values.append(LineValue(time: Int64(bitPattern: time), gpio: Int(page.u32(at: data + gpio)),
                                            isRead: page.u32(at: data + get) != 0, value: page.u32(at: data + value) != 0))
                }
                at = data + size
            }
        }
        return (values, lost)
    }

    /// Where `page`'s records end, and how many the kernel lost before it: bit 31 of the length
    /// says it lost some, bit 30 that it stored their count just past the records (outside the
    /// length: ring_buffer_read_page).
    private static func recordsEnd(of page: [UInt8]) -> (end: Int, lost: Int) {
        let commit = page.u64(at: 8)
        let end = 16 + min(Int(commit & ~UInt64(3 << 30)), page.count - 16)
        guard commit & (1 << 31) != 0 else { return (end, 0) }
        guard commit & (1 << 30) != 0, end + 8 <= page.count else { return (end, 1) }
        return (end, max(1, Int(page.u64(at: end))))
    }
}

extension [UInt8] {
    /// Little-endian reads (both test machines are).
    func u16(at index: Int) -> UInt16 { UInt16(self[index]) | UInt16(self[index + 1]) << 8 }
    func u32(at index: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(self[index + $1]) << (8 * UInt32($1)) } }
    func u64(at index: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(self[index + $1]) << (8 * UInt64($1)) } }
}
