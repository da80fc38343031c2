/// A parser of untrusted bytes, as the programs run it, with what its reading must keep beyond
/// not crashing: `make fuzz` feeds it libFuzzer's inputs (Harness/fuzz), and FuzzTargetsTests
/// replays the committed corpus through it, every finding among them.
///
/// ## Contract
/// - ``check(_:)`` reads one input the way the program reads it from a client or a file and
///   returns the first property the reading broke, in words; `nil` when it kept them all. A
///   crash, a trap or a sanitizer's report is a finding too.
/// - An input is read on its own: nothing one call leaves changes what the next one reads
///   (a target that needs files makes them afresh in its own folder), so that a finding
///   replays from its file alone.
public protocol FuzzTarget {
    /// Its name on the command line, and its corpus folder's and dictionary's under fuzz/.
    static var name: String { get }
    static func check(_ bytes: [UInt8]) -> String?
}

public enum FuzzTargets {
    /// Every target, in the order `make fuzz` runs them.
    public static var all: [any FuzzTarget.Type] {
        [
            RequestHeadTarget.self, WebSocketFramesTarget.self, APIRequestTarget.self, ConfigurationTarget.self,
            StateFileTarget.self, HistoryFileTarget.self, OlderHistoryFileTarget.self, DatabaseTarget.self,
        ]
    }

    public static func named(_ name: String) -> (any FuzzTarget.Type)? {
        all.first { $0.name == name }
    }

    public static var names: [String] { all.map { $0.name } }
}

/// `bytes` one at a time, as a client that sends a byte a packet is read: slices of the one
/// array, since an array a byte made the targets spend most of their time in the sanitizer's
/// allocator.
func singleBytes(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.indices.map { bytes[$0..<$0 + 1] }
}

/// Cuts `bytes` into pieces at places the bytes themselves choose, so that the same input is
/// always cut the same way: what a reader must read alike however the network splits it.
func pieces(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    var pieces: [ArraySlice<UInt8>] = []
    var start = 0
    while start < bytes.count {
        hash = hash &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let length = 1 + Int(hash >> 33) % 17
        let end = min(bytes.count, start + length)
        pieces.append(bytes[start..<end])
        start = end
    }
    return pieces
}
