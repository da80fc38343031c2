extension MatchboxLearner {
    /// A stable digest of the learner's beads: 16 hex digits of the 64-bit FNV-1a hash of
    /// ``digestText``. Two learners with the same boxes holding the same beads have the same
    /// digest on every machine and toolchain (unlike `Hasher`, which is seeded per process), so
    /// a test can compare the learner a power cut left on disk with the one the board had.
    public var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in digestText.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// What ``digest`` hashes: one line per opened box, in key order, its position as filed
    /// (``BoxKey/cells``), a colon and its nine bead counts joined by commas; the empty text for
    /// a learner that has opened none. Spelt out so that anything reading a saved learner can
    /// compute the same digest.
    public var digestText: String {
        boxes.keys.sorted().map { key in
            "\(key.cells):" + (boxes[key]?.beads ?? []).map(String.init).joined(separator: ",") + "\n"
        }.joined()
    }
}
